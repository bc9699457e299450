import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { type Freshness, StampedCache } from '../db/freshness.js';

export interface CachedBody {
  /** Bytes, not a string: sending a Buffer copies nothing, a string is encoded again per response. */
  body: Buffer;
  etag: string;
}

/**
 * Serialised JSON bodies of read endpoints, kept until the database changes. A list that did
 * not change is neither re-queried nor re-serialised, and its ETag is computed once.
 */
export class ResponseCache {
  private readonly cache: StampedCache<CachedBody>;
  constructor(freshness: Freshness) {
    this.cache = new StampedCache(freshness, 512);
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
