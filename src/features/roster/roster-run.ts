// One roster sync at a time across processes: a run holds the `roster-sync` lease (the server's worker's
// too). A second run refuses rather than waits: the one under way brings the users up to date as well.
import type { Clock } from '../../core/domain/time.js';
import { Lease, LeaseLost } from '../../core/workers/lease.js';
import type { Write, Writer } from '../../core/write.js';

/** The sync could not run or was refused: nothing was changed. One line for the operator. */
export class RosterSyncError extends Error {}

export const ROSTER_LEASE = 'roster-sync';

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export class RosterRun {
  private constructor(
    private readonly writer: Writer,
    private readonly lease: Lease,
    /** Taken by this run (a command), not by the worker that runs it. */
    private readonly ownLease: boolean,
  ) {}

  /** The run's own mark on its staged rows. */
  get id(): string {
    return this.lease.owner;
  }

  /** Starts a run under the worker's `lease`, or takes the lease itself for `leaseMs`, or refuses naming the holder. */
  static async start(writer: Writer, clock: Clock, leaseMs: number, lease: Lease | null = null): Promise<RosterRun> {
    let held = lease;
    if (held === null) {
      const taken = await Lease.take(writer, clock, ROSTER_LEASE, leaseMs);
      if (!('lease' in taken)) {
        throw new RosterSyncError(
          `another roster sync is running (started ${iso(taken.holder.startedAt)}, held until ${iso(taken.holder.heldUntil)} unless it makes progress): refused, nothing changed; try again once it has finished`,
        );
      }
      held = taken.lease;
    }
    const run = new RosterRun(writer, held, lease === null);
    await run.write((w) => w.repos.rosterStaging.clearExcept(run.id));
    return run;
  }

  /** Keeps the lease while the run works outside a transaction (between the network's responses). */
  async keep(): Promise<void> {
    await this.guard(() => this.lease.keep());
  }

  /** Runs fn in a write that first renews the lease: once it is another run's, nothing of fn happens. */
  write<T>(fn: (w: Write) => Promise<T>): Promise<T> {
    return this.guard(() =>
      this.writer.write(async (w) => {
        await this.lease.fence(w);
        return fn(w);
      }),
    );
  }

  /** Removes the run's staged rows, and lets go of a lease it took. */
  async end(): Promise<void> {
    await this.writer.write((w) => w.repos.rosterStaging.clear(this.id));
    if (this.ownLease) await this.lease.release();
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof LeaseLost)) throw err;
      throw new RosterSyncError(
        'this roster sync stalled until its lease lapsed and another run took over: stopped; that run brings the users up to date',
      );
    }
  }
}
