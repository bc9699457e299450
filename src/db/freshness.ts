import type { Db } from './connection.js';

/** A value that changes whenever cached data may be stale; null means "never cache". */
export type Stamp = () => string | null | Promise<string | null>;

/**
 * Tells in-process caches whether the data they were built from may have changed.
 * A stamp changes after every local write (bump) and after any commit by another connection
 * (another process, another instance, the CLI): on SQLite from PRAGMA data_version, on
 * PostgreSQL from the server's current snapshot (one round trip per event-loop turn).
 * The stamp is read before the data it guards: a commit after the read changes the next stamp.
 */
export class Freshness {
  private local = 0;
  private externalMemo: number | null | undefined;
  private snapshotMemo: Promise<string | null> | undefined;
  constructor(private readonly db: Db) {}

  bump(): void {
    this.local++;
  }

  /**
   * The database's change counter for commits by other connections, read at most once per
   * event-loop turn: requests answered in the same turn share one read, and a commit by
   * another process is seen from the next turn on.
   */
  external(): number | null {
    if (this.externalMemo === undefined) {
      this.externalMemo = this.db.externalVersion();
      setImmediate(() => {
        this.externalMemo = undefined;
      });
    }
    return this.externalMemo;
  }

  /**
   * The server's snapshot (see Db.currentSnapshot), read at most once per event-loop turn. A
   * request read in this turn arrived before the query runs, so any commit acknowledged before
   * it was sent is counted.
   * If it cannot be read, nothing is cached (the request's own queries report the failure).
   */
  private snapshot(read: () => Promise<string>): Promise<string | null> {
    if (this.snapshotMemo === undefined) {
      this.snapshotMemo = read().catch(() => null);
      setImmediate(() => {
        this.snapshotMemo = undefined;
      });
    }
    return this.snapshotMemo;
  }

  /** The stamp, awaited. Hot paths call stamp() and await only a promise (PostgreSQL). */
  async current(): Promise<string | null> {
    return this.stamp();
  }

  readonly stamp: Stamp = () => {
    const local = this.local;
    const external = this.external();
    if (external !== null) return `${external}:${local}`;
    const read = this.db.currentSnapshot;
    if (read === null) return null;
    return this.snapshot(read).then((p) => (p === null ? null : `${p}:${local}`));
  };
}

/** Caches one value per key for as long as the stamp stays the same. */
export class StampedCache<V> {
  private readonly entries = new Map<string, { stamp: string; value: V }>();
  private readonly stamp: Stamp;
  constructor(source: Freshness | Stamp, private readonly maxEntries = 256) {
    this.stamp = typeof source === 'function' ? source : source.stamp;
  }

  /**
   * `known`: the stamp this request already read, so one request reads the snapshot
   * once however many caches it consults.
   */
  async get(key: string, load: () => Promise<V>, known?: string | null): Promise<V> {
    const read = known === undefined ? this.stamp() : known;
    const stamp = typeof read === 'object' && read !== null ? await read : read;
    if (stamp === null) return load();
    const hit = this.entries.get(key);
    if (hit && hit.stamp === stamp) return hit.value;
    const value = await load();
    // Another write may have landed while loading; store under the stamp seen before loading,
    // so a stale value is never kept past the next check.
    if (this.entries.size >= this.maxEntries) this.entries.clear();
    this.entries.set(key, { stamp, value });
    return value;
  }
}
