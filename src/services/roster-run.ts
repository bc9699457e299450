// One roster sync at a time across processes (the server's scheduled run, another instance's, a
// command's): a run holds the single row of roster_sync_runs while it works, renewing it as it
// makes progress, and its staged rows go with that row. A second run refuses at once rather than
// wait: the run under way brings the users up to date just as well.
import { randomUUID } from 'node:crypto';
import type { Db, Executor } from '../db/connection.js';
import { transaction } from '../db/transaction.js';
import type { Clock } from '../domain/time.js';
import { endRosterRun, renewRosterRun, claimRosterRun } from '../repositories/roster-staging.js';

/** The sync could not run or was refused: nothing was changed. One line for the operator. */
export class RosterSyncError extends Error {}

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export class RosterRun {
  private renewedAt: number;

  private constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    readonly id: string,
    /** How long the turn lasts without progress: a crashed run blocks the next one this long at most. */
    private readonly leaseMs: number,
  ) {
    this.renewedAt = clock();
  }

  /** Takes the turn, or refuses with the holder's start and lease in one line. */
  static async start(db: Db, clock: Clock, leaseMs: number): Promise<RosterRun> {
    const id = randomUUID();
    for (let attempt = 0; ; attempt++) {
      const now = clock();
      const holder = await transaction(db, (trx) => claimRosterRun(trx, id, now, now + leaseMs));
      if (holder === null) return new RosterRun(db, clock, id, leaseMs);
      // The holder ended between the insert and the read: its slot is free now.
      if (holder.run_id === '' && attempt < 2) continue;
      throw new RosterSyncError(
        `another roster sync is running (started ${iso(holder.started_at)}, held until ${iso(holder.lease_until)} unless it makes progress): refused, nothing changed; try again once it has finished`,
      );
    }
  }

  /** Keeps the turn while the run works outside a transaction (between the network's answers). */
  async keep(): Promise<void> {
    const now = this.clock();
    // A write per request would be wasted: the turn lasts far longer than one request may take.
    if (now - this.renewedAt < this.leaseMs / 4) return;
    await transaction(this.db, (trx) => this.fence(trx));
  }

  /**
   * Runs fn in a write transaction that first renews the turn: if the turn is no longer this run's,
   * nothing of fn happens. The renewed row stays locked until commit, so no other run can take
   * over meanwhile.
   */
  write<T>(fn: (trx: Executor) => Promise<T>): Promise<T> {
    return transaction(this.db, async (trx) => {
      await this.fence(trx);
      return fn(trx);
    });
  }

  /** Removes the run's staged rows and frees the turn. */
  async end(): Promise<void> {
    await transaction(this.db, (trx) => endRosterRun(trx, this.id));
  }

  private async fence(trx: Executor): Promise<void> {
    const now = this.clock();
    if (!(await renewRosterRun(trx, this.id, now + this.leaseMs))) {
      throw new RosterSyncError(
        'this roster sync stalled past its turn and another run took over: stopped; that run brings the users up to date',
      );
    }
    this.renewedAt = now;
  }
}
