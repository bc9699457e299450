// Runs the scheduled jobs: each on its own timer, and (unless it works on the process's own state)
// only while this instance holds its lease row, so one instance at a time runs it across all of
// them. After a run the lease is kept until the next run is due, so the job runs once per interval
// across instances, not once per instance; a crashed holder's lease lapses and another takes over.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Db } from '../../db/connection.js';
import { jobLeasesRepository } from '../../repositories/job-leases.js';
import { systemTimers, type Timers } from './timers.js';
import type { JobLogger, ScheduledJob } from './types.js';

/** A failed run the job has already logged as it sees fit: counted in the metrics, not logged again. */
export class ReportedJobFailure extends Error {}

/** Told of every finished run (metrics). */
export interface JobObserver {
  ran(job: string, ok: boolean, seconds: number, at: number): void;
}

export interface JobRunnerOptions {
  db: Db;
  jobs: readonly ScheduledJob[];
  log: JobLogger;
  timers?: Timers;
  observer?: JobObserver;
}

export class JobRunner {
  /** Who holds a lease: unique per runner, also across restarts of the same process id. */
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly timers: Timers;
  private readonly jobs: readonly ScheduledJob[];
  private readonly handles = new Map<string, unknown>();
  private readonly running = new Set<Promise<void>>();
  private readonly aborts = new AbortController();
  private started = false;
  private stopped = false;

  constructor(private readonly o: JobRunnerOptions) {
    this.timers = o.timers ?? systemTimers;
    const names = new Set<string>();
    for (const job of o.jobs) {
      if (names.has(job.name)) throw new Error(`two scheduled jobs are named "${job.name}"`);
      names.add(job.name);
    }
    this.jobs = o.jobs.filter((job) => job.intervalMs > 0);
  }

  get names(): string[] {
    return this.jobs.map((job) => job.name);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    for (const job of this.jobs) this.schedule(job, job.runAtStart ? (job.startDelayMs ?? 0) : job.intervalMs);
  }

  /**
   * Stops scheduling, aborts runs under way and waits for them, then makes the `runAtStop` runs;
   * rejects when one of those fails (its work is lost).
   */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const handle of this.handles.values()) this.timers.clearTimeout(handle);
    this.handles.clear();
    this.aborts.abort();
    await Promise.allSettled([...this.running]);
    const failures: string[] = [];
    for (const job of this.jobs.filter((j) => j.runAtStop)) {
      try {
        await job.run(this.context());
      } catch (err) {
        failures.push(`${job.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    if (failures.length > 0) throw new Error(`last run failed (${failures.join('; ')})`);
  }

  /** Resolves once no turn is under way (tests step the fake clock, then wait for the turns it started). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private schedule(job: ScheduledJob, delayMs: number): void {
    if (this.stopped) return;
    this.handles.set(
      job.name,
      this.timers.setTimeout(
        () => {
          this.handles.delete(job.name);
          const turn = this.turn(job).finally(() => this.running.delete(turn));
          this.running.add(turn);
        },
        Math.max(0, delayMs),
      ),
    );
  }

  /** One turn of a job: take its lease (or learn when to try again), run, hand the lease on. */
  private async turn(job: ScheduledJob): Promise<void> {
    const leases = jobLeasesRepository(this.o.db.kysely);
    if (!job.perInstance) {
      const now = this.timers.now();
      let heldUntil: number | null;
      try {
        heldUntil = await leases.take(job.name, this.owner, now, now + job.leaseMs);
      } catch (err) {
        this.o.log.warn({ err, job: job.name }, 'could not take the lease of a scheduled job; trying again at its next interval');
        return this.schedule(job, job.intervalMs);
      }
      if (heldUntil !== null) {
        // Another instance runs it (or ran it and holds it until the next run is due).
        return this.schedule(job, Math.min(Math.max(heldUntil - now, 1), Math.max(job.intervalMs, job.leaseMs)));
      }
    }
    const started = this.timers.now();
    let ok = true;
    try {
      await job.run(this.context());
    } catch (err) {
      ok = false;
      // A job that reports its own failures (once per run of failures, not every interval) says so.
      if (!(err instanceof ReportedJobFailure))
        this.o.log.warn({ err, job: job.name }, 'a scheduled job failed; it runs again at its next interval');
    }
    const finished = this.timers.now();
    this.o.observer?.ran(job.name, ok, (finished - started) / 1000, finished);
    if (!job.perInstance) {
      await leases.finish(job.name, this.owner, finished + job.intervalMs, ok ? finished : null).catch((err: unknown) => {
        // The lease lapses on its own; at worst the job runs again sooner.
        this.o.log.warn({ err, job: job.name }, 'could not hand on the lease of a scheduled job');
      });
    }
    this.schedule(job, job.intervalMs);
  }

  private context() {
    return { now: () => this.timers.now(), signal: this.aborts.signal, log: this.o.log };
  }
}
