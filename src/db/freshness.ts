import type { Db } from './connection.js';

/** A value that changes whenever cached data may be stale; null means "never cache". */
export type VersionReader = () => Promise<string | null>;

/**
 * What cached answers are built from, so that a local write invalidates only what shows it:
 * - users: users, their areas, activity, endorsements, roles and trainings (the users lists);
 * - names: users' names, which the full form of a booking shows;
 * - positions: the positions (their callsigns appear in bookings and in training endorsements);
 * - bookings: the bookings.
 */
export type Topic = 'users' | 'names' | 'positions' | 'bookings';
export const TOPICS: readonly Topic[] = ['users', 'names', 'positions', 'bookings'];

/**
 * Tells in-process caches whether the data they were built from may have changed.
 * A version changes after a local write of a topic it depends on (bump) and after any commit by
 * another connection (another process, another instance, the CLI): on SQLite from PRAGMA
 * data_version, on PostgreSQL from the server's current snapshot (one round trip per event-loop
 * turn; this process's own commits there are told apart, see SnapshotEpochs). The version is read
 * before the data it guards: a commit after the read changes the next
 * version. Local writes bump after their commit, so data read between the commit and the bump is
 * kept under the old version and rebuilt at the next request, never the other way round.
 */
export class Freshness {
  private readonly topicVersions = new Map<Topic, number>(TOPICS.map((t) => [t, 0]));
  private readonly readers = new Map<string, VersionReader>();
  private externalMemo: number | null | undefined;
  private snapshotMemo: Promise<string | null> | undefined;
  constructor(private readonly db: Db) {}

  /** After a local commit that changed these topics (none named: everything). */
  bump(...topics: Topic[]): void {
    for (const topic of topics.length > 0 ? topics : TOPICS) this.topicVersions.set(topic, this.topicVersions.get(topic)! + 1);
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
      const epochs = this.db.snapshotEpochs;
      this.snapshotMemo = read().then(
        (text) => (epochs ? String(epochs.epochOf(text)) : text),
        () => null,
      );
      setImmediate(() => {
        this.snapshotMemo = undefined;
      });
    }
    return this.snapshotMemo;
  }

  /** The version of data built from every topic. */
  readonly version: VersionReader = () => (this.everything ??= this.versionOf(TOPICS))();
  private everything: VersionReader | undefined;

  /** The version of data built from these topics only: writes of other topics leave it as it is. */
  versionOf(topics: readonly Topic[]): VersionReader {
    const name = [...new Set(topics)].sort().join(',');
    let reader = this.readers.get(name);
    if (reader === undefined) {
      const watched = TOPICS.filter((t) => topics.includes(t));
      // The last version made, reused while neither the database's counter nor a watched topic moved:
      // most requests find it unchanged and build no string.
      let lastExternal: number | null = null;
      let lastVersions = -1;
      let last = '';
      const local = () => watched.map((t) => this.topicVersions.get(t)!).join(':');
      reader = async () => {
        let versions = 0;
        for (const topic of watched) versions += this.topicVersions.get(topic)!;
        const external = this.external();
        if (external !== null) {
          if (external !== lastExternal || versions !== lastVersions) {
            lastExternal = external;
            lastVersions = versions;
            last = `${external}:${local()}`;
          }
          return last;
        }
        const read = this.db.currentSnapshot;
        if (read === null) return null;
        // The topics' versions as the request found them, not as they are when the snapshot arrives.
        const versionsNow = local();
        const snapshot = await this.snapshot(read);
        return snapshot === null ? null : `${snapshot}:${versionsNow}`;
      };
      this.readers.set(name, reader);
    }
    return reader;
  }
}

/** A limit on the bytes a cache holds, for values whose size the caller can tell. */
export interface ByteBudget<V> {
  /** Total bytes kept; least recently used entries are evicted to stay under it. */
  maxBytes: number;
  /** A value larger than this is returned but never kept, so one answer cannot empty the cache. */
  maxEntryBytes: number;
  /** The bytes an entry costs: its value and its key. */
  sizeOf: (key: string, value: V) => number;
}

interface Entry<V> {
  version: string;
  value: V;
  bytes: number;
}

/**
 * Caches one value per key for as long as the version stays the same, bounded by a number of
 * entries and optionally by bytes, evicting the least recently used first.
 */
export class VersionedCache<V> {
  /** In order of use, least recent first (a Map iterates in insertion order). */
  private readonly entries = new Map<string, Entry<V>>();
  private readonly version: VersionReader;
  private totalBytes = 0;
  /** The key used last: a run of hits on one key (the common case) skips reordering. */
  private newest: string | undefined;
  constructor(
    source: Freshness | VersionReader,
    private readonly maxEntries = 256,
    private readonly budget?: ByteBudget<V>,
  ) {
    this.version = typeof source === 'function' ? source : source.version;
  }

  /** Bytes currently kept, as counted by the budget's sizeOf (0 without a budget). */
  get bytes(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The value under `key`, loaded and kept when there is none for the current version. `known`: the
   * version this request already read, so one request reads the snapshot once however many caches
   * it consults.
   */
  async get(key: string, load: () => Promise<V>, known?: string | null): Promise<V> {
    const version = known === undefined ? await this.version() : known;
    if (version === null) return load();
    const hit = this.entries.get(key);
    if (hit) {
      if (hit.version === version) {
        this.markUsed(key, hit);
        return hit.value;
      }
      // Versions never come back: an entry from an older one is dead weight.
      this.remove(key, hit);
    }
    const value = await load();
    // Another write may have landed while loading; store under the version seen before loading,
    // so a stale value is never kept past the next check.
    this.store(key, { version, value, bytes: this.budget ? this.budget.sizeOf(key, value) : 0 });
    return value;
  }

  private markUsed(key: string, entry: Entry<V>): void {
    if (this.newest === key) return;
    this.entries.delete(key);
    this.entries.set(key, entry);
    this.newest = key;
  }

  private store(key: string, entry: Entry<V>): void {
    const previous = this.entries.get(key);
    if (previous) this.remove(key, previous);
    if (this.budget && entry.bytes > this.budget.maxEntryBytes) return;
    const maxBytes = this.budget?.maxBytes ?? Infinity;
    this.evictUntil(this.maxEntries - 1, maxBytes - entry.bytes);
    this.entries.set(key, entry);
    this.totalBytes += entry.bytes;
    this.newest = key;
  }

  /** Evicts least recently used entries until at most `entries` remain holding at most `bytes`. */
  private evictUntil(entries: number, bytes: number): void {
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= entries && this.totalBytes <= bytes) return;
      this.remove(key, entry);
    }
  }

  private remove(key: string, entry: Entry<V>): void {
    this.entries.delete(key);
    this.totalBytes -= entry.bytes;
    if (this.newest === key) this.newest = undefined;
  }
}
