/**
 * PostgreSQL: which transactions ended between two reads of pg_current_snapshot(), and whether
 * any of them was not this process's own. The server's snapshot changes with every transaction
 * that ends, this process's included; its own writes invalidate only what they changed (Freshness
 * bumps those topics after the commit), so only a transaction of someone else's must start a new
 * epoch, in which every cached answer is rebuilt.
 *
 * A snapshot `xmin:xmax:xip…` says: every transaction id below xmax has ended, except those in
 * xip. The transactions that ended between snapshot a and a later b are therefore those in
 * [a.xmax, b.xmax) or in a's xip, and not in b's xip. Read-only transactions get no id and never
 * count. A transaction of this process is registered (own) before it can end, from inside it.
 */
export class SnapshotEpochs {
  private epoch = 0;
  private last: Snapshot | null = null;
  private readonly own = new Set<number>();

  /** Transactions counted between two snapshots before giving up and starting a new epoch. */
  static readonly MAX_SPAN = 1_000;
  /** Own transactions remembered at most (ids are forgotten once seen ending). */
  static readonly MAX_OWN = 10_000;

  /** A transaction of this process, from inside it (before it can end). */
  registerOwn(xid: number): void {
    if (this.own.size >= SnapshotEpochs.MAX_OWN) {
      // Cannot happen unless ids are registered and never seen ending: forget them, start afresh.
      this.own.clear();
      this.epoch++;
    }
    this.own.add(xid);
  }

  /**
   * An own transaction whose outcome this process does not know (its COMMIT failed mid-way): if
   * it committed, its changes were never bumped, so its end must count as someone else's.
   */
  disown(xid: number): void {
    this.own.delete(xid);
  }

  /**
   * The epoch for a snapshot just read: the same as before unless a transaction that was not
   * this process's own ended since the last snapshot seen. A snapshot older than the last one
   * (answers of concurrent reads arriving out of order) changes nothing: whatever the caller reads
   * after it is at least as new as the last one.
   */
  epochOf(text: string): number {
    const next = parseSnapshot(text);
    if (next === null) return ++this.epoch;
    const last = this.last;
    if (last === null) {
      this.last = next;
      return this.epoch;
    }
    if (next.xmax < last.xmax) return this.epoch;
    if (next.xmax - last.xmax > SnapshotEpochs.MAX_SPAN) {
      this.epoch++;
      this.forgetBelow(next.xmin);
      this.last = next;
      return this.epoch;
    }
    let foreign = 0;
    for (const xid of last.xip) foreign += this.ended(xid, next);
    for (let xid = last.xmax; xid < next.xmax; xid++) foreign += this.ended(xid, next);
    if (foreign > 0) this.epoch++;
    this.last = next;
    return this.epoch;
  }

  /** 1 when xid has ended by `next` and was not this process's own, else 0. */
  private ended(xid: number, next: Snapshot): number {
    if (next.xip.has(xid)) return 0;
    return this.own.delete(xid) ? 0 : 1;
  }

  /** Own ids below xmin have ended and were counted, or fell in a span given up on. */
  private forgetBelow(xmin: number): void {
    for (const xid of this.own) if (xid < xmin) this.own.delete(xid);
  }
}

interface Snapshot {
  xmin: number;
  xmax: number;
  xip: Set<number>;
}

/** `xmin:xmax:xip1,xip2,…` as pg_current_snapshot()::text writes it; null if it is not that. */
export function parseSnapshot(text: string): Snapshot | null {
  const m = /^(\d+):(\d+):([\d,]*)$/.exec(text);
  if (!m) return null;
  const xmin = Number(m[1]);
  const xmax = Number(m[2]);
  const xip = new Set(m[3] === '' ? [] : m[3]!.split(',').map(Number));
  if (!Number.isSafeInteger(xmin) || !Number.isSafeInteger(xmax) || xmin > xmax) return null;
  return { xmin, xmax, xip };
}
