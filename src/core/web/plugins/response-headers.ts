import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { PROTECTIVE_HEADERS } from '../client-errors.js';
import { createHash } from 'node:crypto';

export interface ResponseHeadersOptions {
  /** Whether responses carry the rate limiter's RateLimit-* headers, to be copied. */
  rateLimited: boolean;
  /** Told of each conditional GET: whether the client's copy still held (304). */
  onConditional?: (notModified: boolean) => void;
}

const RATE_LIMIT_HEADERS = ['limit', 'remaining', 'reset'] as const;
const PROTECTIVE = Object.entries(PROTECTIVE_HEADERS);

/** A strong ETag: a hash of the body's bytes. */
const etagOf = (body: string | Buffer): string => `"${createHash('sha1').update(body).digest('base64url')}"`;

/**
 * The one onSend hook (a hook per concern would cost every request): protective headers, the
 * X-RateLimit-* names Control Center clients read, caching rules (a keyed response is never stored
 * by a shared cache), and on reads an ETag with 304 on a matching If-None-Match.
 */
async function responseHeaders(app: FastifyInstance, { rateLimited, onConditional }: ResponseHeadersOptions) {
  app.addHook('onSend', (request, reply, payload, done) => {
    for (const [name, value] of PROTECTIVE) reply.header(name, value);
    if (rateLimited)
      for (const name of RATE_LIMIT_HEADERS) {
        const value = reply.getHeader(`ratelimit-${name}`);
        if (value !== undefined) reply.header(`x-ratelimit-${name}`, value);
      }
    if (request.apiKey) reply.header('cache-control', 'no-store');
    else if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');

    // Only a read has a representation a client can revalidate (RFC 9110 §13.1.2).
    if (request.method !== 'GET' && request.method !== 'HEAD') return done(null, payload);
    let etag = reply.getHeader('etag') as string | undefined;
    if (etag === undefined) {
      if (typeof payload !== 'string' && !(payload instanceof Buffer)) return done(null, payload);
      reply.header('etag', (etag = etagOf(payload)));
    }
    const wanted = request.headers['if-none-match'];
    if (wanted === undefined) return done(null, payload);
    const notModified = wanted === etag || wanted === `W/${etag}` || `W/${wanted}` === etag;
    onConditional?.(notModified);
    if (notModified) {
      reply.code(304);
      return done(null, '');
    }
    done(null, payload);
  });
}

export default fp(responseHeaders, { name: 'sector-response-headers' });
