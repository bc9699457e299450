// Every wait of the background work goes through these, so its tests run on a fake clock.
// The defaults look the globals up at each call: vitest's fake timers replace them.

export interface Timers {
  /** Epoch milliseconds. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const handle = setTimeout(fn, ms);
    // Background waits never keep a process alive on their own.
    handle.unref();
    return handle;
  },
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Resolves after `ms`, or at once when `signal` is aborted. */
export function wait(timers: Timers, ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      timers.clearTimeout(handle);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const handle = timers.setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
