// Runs each worker on a timer of its interval and whenever a commit wakes it, on the application's clock:
// `once` workers under their lease, `everywhere` ones up to their concurrency while they find work.
import type { Clock } from '../domain/time.js';
import type { Writer } from '../write.js';
import { Lease } from './lease.js';
import { ReportedWorkerFailure, type Worker, type WorkerContext, type WorkerLogger } from './worker.js';

/** Told of every finished run (metrics). */
export interface WorkerObserver {
  ran(worker: string, ok: boolean, seconds: number, at: number): void;
}

export interface WorkersOptions {
  writer: Writer;
  clock: Clock;
  workers: readonly Worker[];
  observer?: WorkerObserver;
}

/** Read after an await: a wake-up may have set it meanwhile. */
const wokenAgain = (state: { again: boolean }): boolean => state.again;

const silent: WorkerLogger = { info() {}, warn() {}, error() {} };

interface State {
  worker: Worker;
  /** Runs under way. */
  active: number;
  /** Woken while a run was under way: one goes round once more. */
  again: boolean;
  /** Runs under way that have taken work (ctx.took()). */
  busy: number;
  /** A wake-up waits for the end of this tick of the event loop. */
  waking: boolean;
  timer: ReturnType<typeof setTimeout> | undefined;
}

export class Workers {
  private readonly states = new Map<string, State>();
  private readonly running = new Set<Promise<void>>();
  private readonly aborts = new AbortController();
  private started = false;
  private stopped = false;
  private log: WorkerLogger = silent;

  constructor(private readonly o: WorkersOptions) {
    for (const worker of o.workers) {
      if (this.states.has(worker.name)) throw new Error(`two workers are named "${worker.name}"`);
      this.states.set(worker.name, { worker, active: 0, again: false, busy: 0, waking: false, timer: undefined });
    }
  }

  get names(): string[] {
    return [...this.states.keys()];
  }

  start(log: WorkerLogger = silent): void {
    if (this.started) return;
    this.started = true;
    this.log = log;
    for (const state of this.states.values()) this.schedule(state, state.worker.startDelayMs ?? 0);
  }

  /**
   * Runs the worker once this tick of the event loop ends (cheap to call often): work was committed
   * that it should take. The commits of one tick are then found by one look for work, not one each.
   */
  wake(name: string): void {
    const state = this.states.get(name);
    if (!state || !this.started || state.waking) return;
    state.waking = true;
    const woken = new Promise<void>((resolve) =>
      setImmediate(() => {
        state.waking = false;
        this.kick(state);
        resolve();
      }),
    );
    // settled() waits for a wake-up not yet run, as for a run under way.
    this.running.add(woken);
    void woken.then(() => this.running.delete(woken));
  }

  /**
   * Stops scheduling, gives runs `graceMs`, aborts the rest, then makes the `runAtStop` runs (rejects if
   * one fails). An aborted run's claim lapses for any instance to take.
   */
  async stop(graceMs = 2_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    for (const state of this.states.values()) clearTimeout(state.timer);
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([this.settled(), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
    clearTimeout(timer);
    this.aborts.abort();
    await this.settled();
    const failures: string[] = [];
    for (const { worker } of this.states.values()) {
      if (!worker.runAtStop) continue;
      try {
        await worker.run(this.context(null));
      } catch (err) {
        failures.push(`${worker.name}: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    if (failures.length > 0) throw new Error(`last run failed (${failures.join('; ')})`);
  }

  /** Resolves once no run is under way (tests move a fake clock on, then wait for what it started). */
  async settled(): Promise<void> {
    while (this.running.size > 0) await Promise.allSettled([...this.running]);
  }

  private schedule(state: State, delayMs: number): void {
    clearTimeout(state.timer);
    if (this.stopped || (delayMs === state.worker.intervalMs && delayMs === 0)) return;
    state.timer = setTimeout(() => this.kick(state), Math.max(0, delayMs));
    // Background waits never keep a process alive on their own.
    state.timer.unref();
  }

  /**
   * Starts a run unless one is under way that is still looking for work, which then goes round once
   * more. Runs busy with work they took can be long (a webhook subscription's deliveries one after
   * another), so while every run is busy a free slot starts one to look for the new work.
   */
  private kick(state: State): void {
    if (this.stopped) return;
    if (state.active > state.busy || state.active >= this.slots(state)) state.again = true;
    else this.launch(state);
  }

  private slots(state: State): number {
    return state.worker.runs === 'once' ? 1 : (state.worker.concurrency ?? 1);
  }

  /** A run took work: the worker's free slots look for more of it meanwhile. */
  private fill(state: State): void {
    while (!this.stopped && state.active < this.slots(state)) this.launch(state);
  }

  private launch(state: State): void {
    state.active++;
    const loop = this.loop(state).finally(() => this.running.delete(loop));
    this.running.add(loop);
  }

  private async loop(state: State): Promise<void> {
    let nextMs = state.worker.intervalMs;
    try {
      for (;;) {
        state.again = false;
        const outcome = await this.runOnce(state);
        if (outcome.nextMs !== undefined) nextMs = outcome.nextMs;
        if (this.stopped || !(outcome.more || wokenAgain(state))) break;
      }
    } finally {
      state.active--;
      if (state.active === 0) this.schedule(state, nextMs);
    }
  }

  /**
   * One run, or for a worker that runs once across instances its lease and then runs while each says
   * there is more (renewing the lease between them), released with the next due time once done.
   */
  private async runOnce(state: State): Promise<{ more: boolean; nextMs?: number }> {
    const { worker } = state;
    if (worker.runs !== 'once') return { more: (await this.attempt(state, null)).more };
    let lease: Lease;
    try {
      const taken = await Lease.take(this.o.writer, this.o.clock, worker.name, worker.leaseMs ?? 60_000, true);
      // Another instance runs it, or ran it and the next run is not due yet.
      if (!('lease' in taken)) return { more: false, nextMs: Math.max(1, taken.dueAt - this.o.clock()) };
      lease = taken.lease;
    } catch (err) {
      this.log.warn({ err, job: worker.name }, 'could not take the lease of a worker; trying again at its next interval');
      return { more: false };
    }
    let outcome: { ok: boolean; more: boolean };
    for (;;) {
      outcome = await this.attempt(state, lease);
      if (!outcome.ok || !outcome.more || this.stopped) break;
      try {
        // Held across the runs of a backlog: no other instance starts one between them.
        await lease.keep();
      } catch (err) {
        this.log.warn({ err, job: worker.name }, 'could not renew the lease of a worker; it runs again at its next interval');
        return { more: false };
      }
    }
    // A failed release lapses on its own; at worst the worker runs again sooner.
    await lease.release(this.o.clock() + worker.intervalMs, outcome.ok).catch((err: unknown) => {
      this.log.warn({ err, job: worker.name }, 'could not release the lease of a worker');
    });
    return { more: false };
  }

  /** Runs the worker once, observed: whether it succeeded, and whether it asks to run again at once. */
  private async attempt(state: State, lease: Lease | null): Promise<{ ok: boolean; more: boolean }> {
    const { worker } = state;
    const started = this.o.clock();
    let ok = true;
    let more = false;
    const run = { took: false };
    const tookWork = () => {
      if (!run.took) state.busy++;
      run.took = true;
      this.fill(state);
    };
    try {
      more = (await worker.run(this.context(lease, tookWork))) === true;
    } catch (err) {
      ok = false;
      if (!(err instanceof ReportedWorkerFailure))
        this.log.warn({ err, job: worker.name }, 'a worker run failed; it runs again at its next interval');
    } finally {
      if (run.took) state.busy--;
    }
    const finished = this.o.clock();
    this.o.observer?.ran(worker.name, ok, (finished - started) / 1000, finished);
    return { ok, more };
  }

  private context(lease: Lease | null, took: () => void = () => {}): WorkerContext {
    return { now: this.o.clock, signal: this.aborts.signal, log: this.log, lease, took };
  }
}
