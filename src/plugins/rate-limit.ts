import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Whether the request's IP has used up its rate limit, without counting the request; null
     * when there is no limit. Authentication asks it before a key is known (src/plugins/auth.ts).
     */
    ipLimited: ((request: FastifyRequest) => Promise<boolean>) | null;
  }
}

export interface RateLimitOptions {
  /** Requests per minute per key, or per IP without one; 0 turns limiting off. */
  max: number;
}

/**
 * Per-minute request limits on API routes (src/plugins/route-defaults.ts turns them off for the
 * others, so it is a dependency). The limiter counts in each API route's own onRequest hook, which
 * authentication's per-route hook precedes (src/plugins/auth.ts depends on this plugin), so keyed
 * requests count per key; authentication asks ipLimited whether an IP has used its limit before a
 * key is known.
 */
async function limits(app: FastifyInstance, { max }: RateLimitOptions) {
  if (max <= 0) {
    app.decorate('ipLimited', null);
    return;
  }
  await app.register(rateLimit, {
    max,
    timeWindow: 60_000,
    // The draft standard's RateLimit-Limit/-Remaining/-Reset; the X-RateLimit-* names are copied in src/plugins/response-headers.ts.
    enableDraftSpec: true,
    keyGenerator: (request) => (request.apiKey ? `key:${request.apiKey.id}` : `ip:${request.ip}`),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`,
    }),
  });
  // The same counters, read without counting; asked before a key is known, so it reads the IP's.
  const peek = app.createRateLimit();
  app.decorate('ipLimited', async (request: FastifyRequest) => {
    const state = await peek(request, { increment: false });
    return !state.isAllowed && state.remaining <= 0;
  });
}

export default fp(limits, { name: 'sector-rate-limit', dependencies: ['sector-route-defaults'] });
