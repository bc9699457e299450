import type { Db } from './connection.js';

/** A value that changes whenever cached data may be stale; null means "never cache". */
export type Stamp = () => string | null;

/**
 * Tells in-process caches whether the data they were built from may have changed.
 * A stamp changes after every local write (bump) and, on SQLite, after any commit by another
 * connection (another process, the CLI). Where no cheap external signal exists (PostgreSQL
 * with several instances), stamp() is null and nothing may be cached across requests.
 */
export class Freshness {
  private local = 0;
  private externalMemo: number | null | undefined;
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

  readonly stamp: Stamp = () => {
    const external = this.external();
    return external === null ? null : `${external}:${this.local}`;
  };
}

/** Caches one value per key for as long as the stamp stays the same. */
export class StampedCache<V> {
  private readonly entries = new Map<string, { stamp: string; value: V }>();
  private readonly stamp: Stamp;
  constructor(source: Freshness | Stamp, private readonly maxEntries = 256) {
    this.stamp = typeof source === 'function' ? source : source.stamp;
  }

  async get(key: string, load: () => Promise<V>): Promise<V> {
    const stamp = this.stamp();
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
