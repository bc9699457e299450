// The one background-job mechanism's vocabulary. Every piece of background work in the server is
// either a scheduled job (runs every interval, once across instances) or an outbox consumer
// (claims rows with a lease, runs a handler for each, records the result). The runner that
// executes both lives beside this file; handlers stay small and know nothing about timers.

/** What a handler is given for one run. */
export interface JobContext {
  /** The injectable clock (epoch ms); never Date.now() in a handler. */
  now(): number;
  /** Aborted when the server shuts down: a long run stops at its next step. */
  signal: AbortSignal;
  /** For what an operator should see (a failed run is logged by the runner itself). */
  log: JobLogger;
}

export interface JobLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** A job that runs every `intervalMs`, by one instance at a time across all instances. */
export interface ScheduledJob {
  /** Stable name: the lock key across instances and the `job` label of its metrics. */
  name: string;
  /** Time between the end of one run and the start of the next; 0 = never scheduled. */
  intervalMs: number;
  /** Run once at start (after `startDelayMs`, default 0) instead of waiting a whole interval. */
  runAtStart?: boolean;
  startDelayMs?: number;
  /** The longest one run may hold the cross-instance lock before another instance may take over. */
  leaseMs: number;
  /**
   * Runs in every instance, without the cross-instance lock: for work on the process's own state
   * (the API key use it has batched). `leaseMs` is then unused.
   */
  perInstance?: boolean;
  /** Runs once more when the runner stops (after any run under way): the last batch is not lost. */
  runAtStop?: boolean;
  run(ctx: JobContext): Promise<void>;
}
