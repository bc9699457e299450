// The one background mechanism: all background work is a Worker, registered in the composition root
// (src/app/services.ts) and run by one Workers (workers.ts), which the server starts and stops.
import type { Lease } from './lease.js';

/** The pino methods workers log with. */
export interface WorkerLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

/** What one run is given. */
export interface WorkerContext {
  /** The application's clock (epoch ms). */
  now(): number;
  /** Aborted when the server stops: a long run ends at its next step. */
  signal: AbortSignal;
  log: WorkerLogger;
  /** The lease of a worker that runs once across instances (see Worker.runs). */
  lease: Lease | null;
  /** A run that took work (claimed a row) says so before doing it: the worker's other slots look for more meanwhile. */
  took(): void;
}

export interface Worker {
  /** Stable: the lease's name across instances and the `job` label of its metrics. */
  name: string;
  /** Time from the end of one run to the next when nothing wakes it; 0: only when woken. */
  intervalMs: number;
  /** `once`: one instance at a time, under the lease of its name. `everywhere`: every instance (own state, or claimed rows). */
  runs: 'once' | 'everywhere';
  /** `once`: how long a run may hold the lease without renewing it before another instance takes over. */
  leaseMs?: number;
  /** `everywhere`: runs under way at once in this process (deliveries in flight). */
  concurrency?: number;
  /** The first run after start: at once unless set (an interval's wait: set it to intervalMs). */
  startDelayMs?: number;
  /** Runs once more at stop, after the runs under way (work batched in memory is not lost). */
  runAtStop?: boolean;
  /** One run. Resolving to true: it did work and may find more, so it runs again at once. */
  run(ctx: WorkerContext): Promise<unknown>;
}

/** A failed run the worker has already logged as it sees fit: counted in the metrics, not logged again. */
export class ReportedWorkerFailure extends Error {}
