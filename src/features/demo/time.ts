// Time helpers for the generator. Every generated instant is a whole minute, derived from `now`.
import type { Rng } from './random.js';

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;

/** "2025-01-01T10:00:00Z", the plain ISO form the import format reads. */
export function iso(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 19)}Z`;
}

/** A whole minute between minDays and maxDays before `now` (always at least a minute before it). */
export function daysAgo(rng: Rng, now: number, minDays: number, maxDays: number): number {
  const base = Math.floor(now / MINUTE) * MINUTE;
  return base - rng.int(Math.max(1, Math.round(minDays * 1440)), Math.round(maxDays * 1440)) * MINUTE;
}

/** A whole minute at a fraction between lo and hi of the way from `from` to `to`. */
export function between(rng: Rng, from: number, to: number, lo: number, hi: number): number {
  const at = from + (to - from) * (lo + (hi - lo) * rng.next());
  return Math.floor(at / MINUTE) * MINUTE;
}
