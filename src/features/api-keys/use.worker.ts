// When each API key was last used: this process's own times, batched in memory, written by every
// instance; the last batch at shutdown, after the last request.
import type { Worker } from '../../core/workers/worker.js';

export function apiKeyUseWorker({
  keys,
  intervalMs = 30_000,
}: {
  keys: { flushLastUsed(): Promise<void> };
  /** How often the batch is written. */
  intervalMs?: number;
}): Worker {
  return {
    name: 'api-key-use',
    runs: 'everywhere',
    intervalMs,
    startDelayMs: intervalMs,
    runAtStop: true,
    run: () => keys.flushLastUsed(),
  };
}
