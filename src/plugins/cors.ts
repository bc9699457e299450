import fp from 'fastify-plugin';
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction, RouteOptions } from 'fastify';
import { addRouteHook } from '../http/route-hooks.js';

const EXPOSED_HEADERS = ['ETag', 'Link', 'Deprecation'];

/** Public GETs are readable from any site: the route's own hook, with the answer's fixed headers. */
function allowAnyOrigin(_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void {
  reply.header('access-control-allow-origin', '*');
  reply.header('access-control-expose-headers', EXPOSED_HEADERS.join(', '));
  done();
}

/** A GET (or HEAD) route anyone may call, with or without a key. */
export function isPublicGet(route: RouteOptions): boolean {
  const auth = route.config?.auth;
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  return (auth === 'public' || auth === 'optional') && methods.every((m) => m === 'GET' || m === 'HEAD');
}

/**
 * Browsers on any site may read the public GETs (the schedule, the calendar feed, the bookings
 * list); every other route answers without CORS headers. Preflight requests (OPTIONS on any path)
 * are answered by @fastify/cors, registered in a context of its own so that its per-request hook
 * runs for them alone; a public GET gets its two headers from a hook of its own, put before
 * authentication's (so this plugin depends on it), so that a refusal carries them too. Not strict: an OPTIONS request without CORS
 * headers is answered like any other, never with a text error.
 */
async function crossOrigin(app: FastifyInstance) {
  await app.register(async (preflight) => {
    await preflight.register(cors, { origin: '*', methods: ['GET', 'HEAD'], exposedHeaders: EXPOSED_HEADERS, strictPreflight: false });
  });
  app.addHook('onRoute', (route) => {
    if (isPublicGet(route)) addRouteHook(route, 'onRequest', allowAnyOrigin, 'first');
  });
}

export default fp(crossOrigin, { name: 'sector-cors', dependencies: ['sector-auth'] });
