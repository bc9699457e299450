// The loop every outbox consumer shares (webhook deliveries, network pushes): claim due rows
// under a lease, run a handler for each with bounded concurrency, claim again when one finishes.
// What is due, in which order per key, and the backoff after a failure are the source's: its
// claim query picks only each key's head, and its handler records the result with the next
// attempt's time. A local commit wakes the consumer at once; a poll finds the work of other
// processes and retries coming due.
import { systemTimers, type Timers } from './timers.js';

export interface OutboxSource<T> {
  /**
   * Claims up to `limit` due rows under a lease (`limit` may be 0: then it only moves events
   * committed since the last call into rows to claim). `more`: work was left behind, call again.
   */
  claim(limit: number): Promise<{ claimed: T[]; more: boolean }>;
  /**
   * One attempt at a claimed row, its result recorded. A throw leaves the row to its lease: it is
   * tried again once that lapses (at least once). `signal` aborts when the consumer stops.
   */
  handle(item: T, signal: AbortSignal): Promise<void>;
  /** Log fields naming a row. */
  describe(item: T): object;
}

export interface OutboxConsumerOptions {
  /** Names the consumer in its log lines. */
  name: string;
  /** Rows handled at once by this process. */
  concurrency: number;
  /** How often due work is looked for when nothing wakes the consumer. */
  pollMs: number;
  log: { warn(obj: object, msg: string): void };
  timers?: Timers;
}

export class OutboxConsumer<T> {
  private readonly timers: Timers;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly aborts = new AbortController();
  private poll: unknown;
  private claiming: Promise<void> | null = null;
  private again = false;
  private running = false;

  constructor(
    private readonly source: OutboxSource<T>,
    private readonly o: OutboxConsumerOptions,
  ) {
    this.timers = o.timers ?? systemTimers;
  }

  start(): void {
    if (this.running || this.aborts.signal.aborted) return;
    this.running = true;
    const tick = () => {
      this.wake();
      this.poll = this.timers.setTimeout(tick, this.o.pollMs);
    };
    tick();
  }

  /** Something may be due (a commit, a finished attempt, the poll): claim now. Cheap to call often. */
  wake(): void {
    if (!this.running) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = this.claimLoop().finally(() => (this.claiming = null));
  }

  /**
   * Stops claiming, gives attempts under way `graceMs` to finish, then aborts them: their rows
   * are tried again when their leases lapse, by any instance (at least once).
   */
  async stop(graceMs = 2_000): Promise<void> {
    this.running = false;
    this.timers.clearTimeout(this.poll);
    await this.claiming;
    const all = Promise.allSettled([...this.inFlight]);
    let graceTimer: unknown;
    const grace = new Promise((resolve) => (graceTimer = this.timers.setTimeout(() => resolve(undefined), graceMs)));
    await Promise.race([all, grace]);
    this.timers.clearTimeout(graceTimer);
    this.aborts.abort();
    await all;
  }

  /** Resolves once no claim or attempt is under way (tests wait for the work a wake-up started). */
  async settled(): Promise<void> {
    while (this.claiming || this.inFlight.size > 0) await Promise.allSettled([this.claiming, ...this.inFlight]);
  }

  private async claimLoop(): Promise<void> {
    do {
      this.again = false;
      const free = this.o.concurrency - this.inFlight.size;
      let batch: { claimed: T[]; more: boolean };
      try {
        batch = await this.source.claim(Math.max(free, 0));
      } catch (err) {
        this.o.log.warn({ err }, `could not claim ${this.o.name}; trying again shortly`);
        return;
      }
      for (const item of batch.claimed) this.launch(item);
      // A full batch may have left more due rows behind.
      if (batch.more || (free > 0 && batch.claimed.length === free)) this.again = true;
    } while (this.again && this.running);
  }

  private launch(item: T): void {
    const attempt = this.source
      .handle(item, this.aborts.signal)
      .catch((err: unknown) => {
        this.o.log.warn(
          { err, ...this.source.describe(item) },
          `${this.o.name}: an attempt failed; it is tried again when its lease lapses`,
        );
      })
      .finally(() => {
        this.inFlight.delete(attempt);
        this.wake();
      });
    this.inFlight.add(attempt);
  }
}
