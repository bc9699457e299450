import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { addRouteHook } from '../http/route-hooks.js';
import { malformedRequestCheck } from '../http/parameters.js';

/**
 * Route-level defaults derived from who may call a route (its `config.auth`): rate limiting only
 * on API routes, and the check that refuses a malformed query (every route) or Api-Variant (API
 * routes), as each route's own hook, so that no request looks its route's config up. Routes then
 * need not repeat them, and a new route cannot forget them. Registered before the rate-limit
 * plugin, which reads the same config.
 */
async function routeDefaults(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (!auth) route.config = { ...route.config, rateLimit: false };
    addRouteHook(route, 'preValidation', malformedRequestCheck({ variant: auth !== undefined }), 'first');
  });
}

export default fp(routeDefaults, { name: 'sector-route-defaults' });
