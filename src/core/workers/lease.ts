// "Only one instance does this": a job_leases row per name, taken by one conditional upsert, renewed
// while its holder makes progress; workers and commands doing the same work (roster:sync) share it.
import { randomBytes } from 'node:crypto';
import type { Clock } from '../domain/time.js';
import type { Write, Writer } from '../write.js';

/** The lease is held by someone else: since when, and until when unless they renew it. */
export interface LeaseHolder {
  startedAt: number;
  heldUntil: number;
}

/** The holder stalled past its lease and another took it over: it must stop, changing nothing more. */
export class LeaseLost extends Error {}

export class Lease {
  private renewedAt: number;

  private constructor(
    private readonly writer: Writer,
    private readonly clock: Clock,
    readonly name: string,
    /** Unique per holding: also what the holder's own rows are marked with (the roster's staging). */
    readonly owner: string,
    private readonly leaseMs: number,
  ) {
    this.renewedAt = clock();
  }

  /**
   * Takes the lease of `name` for leaseMs, or tells who holds it. `scheduled`: a worker's run,
   * which also waits for the next run's due time; a command takes it whenever nobody holds it.
   */
  static async take(
    writer: Writer,
    clock: Clock,
    name: string,
    leaseMs: number,
    scheduled = false,
  ): Promise<{ lease: Lease } | { holder: LeaseHolder; dueAt: number }> {
    const owner = randomBytes(12).toString('base64url');
    const now = clock();
    const taken = await writer.write((w) => w.repos.leases.take(name, owner, now, now + leaseMs, scheduled));
    if (taken === null) return { lease: new Lease(writer, clock, name, owner, leaseMs) };
    return {
      holder: { startedAt: taken.started_at, heldUntil: taken.lease_until },
      dueAt: Math.max(taken.lease_until, taken.next_run_at ?? 0),
    };
  }

  /** Keeps the lease while its holder works outside a transaction (waiting for the network). */
  async keep(): Promise<void> {
    // A write per step would be wasted: the lease lasts far longer than one step may take.
    if (this.clock() - this.renewedAt < this.leaseMs / 4) return;
    await this.writer.write((w) => this.fence(w));
  }

  /**
   * Renews the lease inside the caller's write transaction, or throws LeaseLost: nothing of that
   * write happens once the lease is another's. The renewed row stays locked until the commit.
   */
  async fence(w: Write): Promise<void> {
    const now = this.clock();
    if (!(await w.repos.leases.renew(this.name, this.owner, now + this.leaseMs))) {
      throw new LeaseLost(`the ${this.name} lease was lost (the run stalled past it and another took over)`);
    }
    this.renewedAt = now;
  }

  /** Lets go of the lease; `nextRunAt` is when the next scheduled run is due, `succeeded` records its success. */
  async release(nextRunAt: number | null = null, succeeded = false): Promise<void> {
    const now = this.clock();
    await this.writer.write((w) => w.repos.leases.release(this.name, this.owner, now, nextRunAt, succeeded ? now : null));
  }
}
