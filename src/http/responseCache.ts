import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { type Freshness, StampedCache } from '../db/freshness.js';

export interface CachedBody {
  /** Bytes, not a string: sending a Buffer copies nothing, a string is encoded again per response. */
  body: Buffer;
  etag: string;
  /** Memory the entry holds besides its body (an index kept with it), counted against the budget. */
  extraBytes?: number;
}

/**
 * An unpaginated list runs to megabytes, so the cache is bounded in bytes as well as entries.
 * 32 MiB keeps dozens of full lists at the benchmark's scale and leaves the process well inside
 * its 200 MB RSS target, with the users lists' own budget (src/services/usersList.ts).
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

/** A body and its strong ETag (a hash of its bytes). */
export function withEtag(body: Buffer): CachedBody {
  return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
}

/** Sends a serialised JSON body with its ETag. */
export function sendBody(reply: FastifyReply, answer: Pick<CachedBody, 'body' | 'etag'>): FastifyReply {
  return reply.header('etag', answer.etag).type('application/json; charset=utf-8').send(answer.body);
}

export interface ResponseCacheOptions {
  /** Total bytes kept (default RESPONSE_CACHE_BYTES). */
  maxBytes?: number;
  /** The largest entry kept (default RESPONSE_CACHE_MAX_BODY_BYTES). */
  maxBodyBytes?: number;
}

/**
 * Serialised JSON bodies of read endpoints, kept until the database changes. A list that did
 * not change is neither re-queried nor re-serialised, and its ETag is computed once.
 */
export class ResponseCache {
  private readonly cache: StampedCache<CachedBody>;
  private readonly maxBodyBytes: number;

  constructor(freshness: Freshness, options: ResponseCacheOptions = {}) {
    this.maxBodyBytes = options.maxBodyBytes ?? RESPONSE_CACHE_MAX_BODY_BYTES;
    this.cache = new StampedCache(freshness, RESPONSE_CACHE_ENTRIES, {
      maxBytes: options.maxBytes ?? RESPONSE_CACHE_BYTES,
      maxEntryBytes: this.maxBodyBytes,
      sizeOf,
    });
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
   * The entry under `key`, built and kept if there is none for the current stamp. One key always
   * holds entries of one shape, so a caller may keep more than a body in them (T).
   * `stamp`: the freshness stamp the request already read, if it did.
   */
  entry<T extends CachedBody>(key: string, build: () => Promise<T>, stamp?: string | null): Promise<T> {
    return this.cache.get(key, build, stamp) as Promise<T>;
  }

  /** Sends the body under `key`, serialising what `build` gives when there is none. */
  async send(reply: FastifyReply, key: string, build: () => Promise<unknown>, stamp?: string | null): Promise<FastifyReply> {
    const cached = await this.entry(key, async () => withEtag(Buffer.from(JSON.stringify(await build()))), stamp);
    return sendBody(reply, cached);
  }
}
