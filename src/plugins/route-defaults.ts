import fp from 'fastify-plugin';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { addRouteHook, preParsing } from '../http/route-hooks.js';
import { malformedRequestCheck } from '../http/parameters.js';

export interface RouteDefaultsOptions {
  /** Whether requests are rate limited (then refusals wait for the limiter, and so does this check). */
  rateLimited: boolean;
}

/**
 * Route-level defaults derived from who may call a route (its `config.auth`): rate limiting only
 * on API routes, and the check that refuses a malformed query (every route) or Api-Variant (API
 * routes), as each route's own hook, so that no request looks its route's config up. Routes then
 * need not repeat them, and a new route cannot forget them. The check comes right after
 * authentication's refusals (src/plugins/auth.ts), so 401 and 403 come first: among the request
 * hooks without a rate limit, among the pre-parsing ones with one. The rate-limit and auth plugins
 * read the same config and put their hooks around these, so they depend on this plugin.
 */
async function routeDefaults(app: FastifyInstance, { rateLimited }: RouteDefaultsOptions) {
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    if (!auth) route.config = { ...route.config, rateLimit: false };
    // Routes a client calls (those with an auth level) take the parameters their schema names, and no
    // other. Pages answer people in HTML and check their own query (the schedule page shows its form
    // again); sign-in and members' forms are reached from links of other sites and of the network's
    // sign-in, which may add parameters of their own.
    const page = route.config?.page === true;
    const check = malformedRequestCheck(
      auth === undefined || page ? { variant: false } : { variant: true, parameters: parametersOf(route) },
    );
    if (rateLimited) addRouteHook(route, 'preParsing', preParsing(check));
    else addRouteHook(route, 'onRequest', check);
  });
}

/** The names of the route's query parameters, as its querystring schema lists them (none without one). */
function parametersOf(route: RouteOptions): string[] {
  const query = (route.schema as { querystring?: { properties?: Record<string, unknown> } } | undefined)?.querystring;
  return Object.keys(query?.properties ?? {});
}

export default fp(routeDefaults, { name: 'sector-route-defaults' });
