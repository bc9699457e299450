// CORS, configured one way (@fastify/cors, once for the whole application): the public GETs (a route
// whose level is public or optional) are readable from any site, refusals included, and browsers'
// preflights are answered for GET and HEAD only. Every other route sends no CORS header.
import cors from '@fastify/cors';
import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** @fastify/cors reads a route's own options here, over the application's. */
    cors?: { origin: '*' };
  }
}

const READS: ReadonlyArray<HTTPMethods> = ['GET', 'HEAD'];
const ANY_ORIGIN = { origin: '*' } as const;

/** Whether the route answers any origin: the preflight route, and the reads anyone may make. */
function readableFromAnySite(route: RouteOptions): boolean {
  const methods = Array.isArray(route.method) ? route.method : [route.method];
  if (methods.includes('OPTIONS')) return true;
  const level = route.config?.auth;
  return (level === 'public' || level === 'optional') && methods.every((m) => READS.includes(m));
}

async function corsPolicy(app: FastifyInstance): Promise<void> {
  // Before @fastify/cors registers its preflight route, so that route is seen too.
  app.addHook('onRoute', (route) => {
    if (readableFromAnySite(route)) route.config = { ...route.config, cors: ANY_ORIGIN };
  });
  await app.register(cors, {
    // No origin unless the route's own config (set above) says any: routes not found get none either.
    origin: false,
    methods: [...READS],
    exposedHeaders: ['ETag', 'Link', 'Deprecation'],
    strictPreflight: false,
  });
}

export default fp(corsPolicy, { name: 'sector-cors' });
