import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { type Freshness, StampedCache } from '../db/freshness.js';

export interface CachedBody {
  /** Bytes, not a string: sending a Buffer copies nothing, a string is encoded again per response. */
  body: Buffer;
  etag: string;
}

/**
 * Every distinct filter (each `from` to the millisecond) is a separate entry, and an
 * unpaginated list runs to megabytes: counted in entries alone, a client could fill gigabytes.
 * 32 MiB keeps dozens of full lists at the benchmark's scale and leaves the process well
 * inside its 200 MB RSS target, with the users lists' own budget (src/services/usersList.ts).
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

const sizeOf = (key: string, cached: CachedBody): number => cached.body.byteLength + key.length * 2 + ENTRY_OVERHEAD_BYTES;

/**
 * Serialised JSON bodies of read endpoints, kept until the database changes. A list that did
 * not change is neither re-queried nor re-serialised, and its ETag is computed once.
 */
export class ResponseCache {
  private readonly cache: StampedCache<CachedBody>;
  constructor(freshness: Freshness) {
    this.cache = new StampedCache(freshness, RESPONSE_CACHE_ENTRIES, {
      maxBytes: RESPONSE_CACHE_BYTES,
      maxEntryBytes: RESPONSE_CACHE_MAX_BODY_BYTES,
      sizeOf,
    });
  }

  /** Bytes held, for tests and diagnostics. */
  get bytes(): number {
    return this.cache.bytes;
  }

  /** `stamp`: the freshness stamp the request already read, if it did. */
  async send(reply: FastifyReply, key: string, build: () => Promise<unknown>, stamp?: string | null): Promise<FastifyReply> {
    const cached = await this.cache.get(
      key,
      async () => {
        const body = Buffer.from(JSON.stringify(await build()));
        return { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
      },
      stamp,
    );
    return reply.header('etag', cached.etag).type('application/json; charset=utf-8').send(cached.body);
  }
}
