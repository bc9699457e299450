import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { PROTECTIVE_HEADERS } from '../http/client-errors.js';

export interface ResponseHeadersOptions {
  /** Whether responses carry the rate limiter's RateLimit-* headers, to be copied. */
  rateLimited: boolean;
}

const RATE_LIMIT_HEADERS = ['limit', 'remaining', 'reset'] as const;

/**
 * Headers every answer gets, in one onSend hook: the protective headers; the X-RateLimit-* names
 * that clients written against Control Center read, copied from the draft standard's RateLimit-*;
 * and caching rules: an answer to a request with a key is never stored by a shared cache, any
 * other is revalidated unless its route says otherwise.
 */
async function responseHeaders(app: FastifyInstance, { rateLimited }: ResponseHeadersOptions) {
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(PROTECTIVE_HEADERS);
    if (rateLimited)
      for (const name of RATE_LIMIT_HEADERS) {
        const value = reply.getHeader(`ratelimit-${name}`);
        if (value !== undefined) reply.header(`x-ratelimit-${name}`, value);
      }
    if (request.apiKey) reply.header('cache-control', 'no-store');
    else if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
    done(null, payload);
  });
}

export default fp(responseHeaders, { name: 'sector-response-headers' });
