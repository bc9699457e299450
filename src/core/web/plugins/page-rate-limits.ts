// The pages' rate limits, with the API's limiter (@fastify/rate-limit), counted per instance: a
// signed-in member's form posts, and the sign-ins started from one address. Past a limit: a 429
// page (the member's header kept) saying when to try again; nothing is done.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendMessage } from '../pages.js';

export const PAGE_POSTS_PER_MINUTE = 30;
export const SIGN_INS_PER_MINUTE = 10;

/** Routes that start a sign-in (the network's, or the demo's one click). */
const SIGN_IN_STARTS = new Set(['GET /auth/login', 'POST /auth/demo']);

async function pageRateLimits(scope: FastifyInstance): Promise<void> {
  await scope.register(rateLimit, { global: false });
  const posts = scope.createRateLimit({
    max: PAGE_POSTS_PER_MINUTE,
    timeWindow: 60_000,
    keyGenerator: (request) => `member:${request.member!.cid}`,
  });
  const signIns = scope.createRateLimit({ max: SIGN_INS_PER_MINUTE, timeWindow: 60_000, keyGenerator: (request) => `ip:${request.ip}` });
  const limiterOf = (request: FastifyRequest) => {
    if (SIGN_IN_STARTS.has(`${request.method} ${request.routeOptions.url ?? ''}`)) return { limit: signIns, what: 'sign-ins' };
    if (request.method === 'POST' && request.member !== null) return { limit: posts, what: 'forms' };
    return null;
  };

  // After the session's hook (request.member), before anything reads a body or writes.
  scope.addHook('onRequest', async (request, reply) => {
    const limiter = limiterOf(request);
    if (limiter === null) return;
    const state = await limiter.limit(request);
    if (state.isAllowed || !state.isExceeded) return;
    const seconds = Math.max(1, state.ttlInSeconds);
    const at = new Date(Date.now() + seconds * 1000).toISOString().slice(11, 19);
    const sent =
      limiter.what === 'forms' ? `${state.max} forms a minute from your account` : `${state.max} sign-ins a minute from your address`;
    await sendMessage(request, reply.header('retry-after', String(seconds)), 429, {
      title: 'Too many requests',
      message: `This site takes at most ${sent}; nothing was done. Try again in ${seconds} s (at ${at} UTC).`,
      links: [{ href: '/', text: 'Back to the schedule' }],
    });
  });
}

export default fp(pageRateLimits, { name: 'sector-page-rate-limits', dependencies: ['sector-member-session'] });
