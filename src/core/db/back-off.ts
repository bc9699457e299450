import { setTimeout as sleep } from 'node:timers/promises';

/** Jittered and growing, so two retrying writers do not meet again in step. */
export const backOff = (attempt: number): Promise<void> => sleep(Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random()));
