import { type Freshness, VersionedCache, type Topic } from '../db/freshness.js';
import { type CachedBody, serialiseWithEtag } from './cached-body.js';

export type { CachedBody } from './cached-body.js';

/**
 * An unpaginated list runs to megabytes, so the cache is bounded in bytes as well as entries:
 * together with the users lists' own budget (src/services/users-list.ts) this bounds every cached
 * body the process holds.
 */
export const RESPONSE_CACHE_BYTES = 32 * 1024 * 1024;

/**
 * A body bigger than this is sent but not kept: one huge list must not evict everything else,
 * and at this size building it again costs little next to sending it.
 */
export const RESPONSE_CACHE_MAX_BODY_BYTES = RESPONSE_CACHE_BYTES / 4;

const RESPONSE_CACHE_ENTRIES = 512;

/** What an entry costs besides its body: the key (UTF-16) and the entry's objects and ETag. */
const ENTRY_OVERHEAD_BYTES = 256;

const sizeOf = (key: string, cached: CachedBody): number =>
  cached.body.byteLength + (cached.extraBytes ?? 0) + key.length * 2 + ENTRY_OVERHEAD_BYTES;

export interface ResponseCacheOptions {
  /** Total bytes kept (default RESPONSE_CACHE_BYTES). */
  maxBytes?: number;
  /** The largest entry kept (default RESPONSE_CACHE_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
  /** Told of every lookup: true when the entry was there, false when it had to be built (metrics). */
  onLookup?: (hit: boolean) => void;
}

/**
 * Serialised JSON bodies of read endpoints, kept until the database changes. A list that did
 * not change is neither re-queried nor re-serialised, and its ETag is computed once.
 */
export class ResponseCache {
  private readonly cache: VersionedCache<CachedBody>;
  private readonly maxBodyBytes: number;
  private readonly onLookup: ((hit: boolean) => void) | undefined;

  constructor(
    private readonly freshness: Freshness,
    options: ResponseCacheOptions = {},
  ) {
    this.maxBodyBytes = options.maxBodyBytes ?? RESPONSE_CACHE_MAX_BODY_BYTES;
    this.onLookup = options.onLookup;
    // Every lookup names its version (of the topics its answer is built from); this one is unused.
    this.cache = new VersionedCache(freshness, RESPONSE_CACHE_ENTRIES, {
      maxBytes: options.maxBytes ?? RESPONSE_CACHE_BYTES,
      maxEntryBytes: this.maxBodyBytes,
      sizeOf,
    });
  }

  /** The version of answers built from `topics`: read it once per request, for every entry the request uses. */
  versionOf(topics: readonly Topic[]): Promise<string | null> {
    return this.freshness.versionOf(topics)();
  }

  /** Bytes held, for tests and diagnostics. */
  get bytes(): number {
    return this.cache.bytes;
  }

  /** Whether an entry of this size under this key is kept at all (a larger one is built per request). */
  keeps(key: string, entry: CachedBody): boolean {
    return sizeOf(key, entry) <= this.maxBodyBytes;
  }

  /**
   * The entry under `key`, built and kept if there is none for `version` (from versionOf). One key
   * always holds entries of one shape, so a caller may keep more than a body in them (T).
   */
  async entry<T extends CachedBody>(key: string, version: string | null, build: () => Promise<T>): Promise<T> {
    if (!this.onLookup) return this.cache.get(key, build, version) as Promise<T>;
    let built = false;
    const entry = (await this.cache.get(
      key,
      () => {
        built = true;
        return build();
      },
      version,
    )) as T;
    this.onLookup(!built);
    return entry;
  }

  /** The body under `key` for answers built from `topics`, serialising what `build` gives when there is none. */
  async body(key: string, topics: readonly Topic[], build: () => Promise<unknown>): Promise<CachedBody> {
    return this.entry(key, await this.versionOf(topics), async () => serialiseWithEtag(await build()));
  }
}
