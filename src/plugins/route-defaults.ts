import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';

/**
 * Route-level defaults derived from who may call a route (its `config.auth`): CORS only on public
 * GETs, and rate limiting only on API routes. Routes then need not repeat them, and a new route
 * cannot forget them. Registered before the CORS and rate-limit plugins, which read the same config.
 */
async function routeDefaults(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const publicGet = (auth === 'public' || auth === 'optional') && methods.every((m) => m === 'GET' || m === 'HEAD');
    // The CORS plugin's own preflight route (OPTIONS *) must keep answering, so browsers may send a key to public GETs.
    const preflight = methods.includes('OPTIONS') && (route.url === '*' || route.url === '/*');
    const cors = publicGet || preflight ? {} : { cors: false };
    route.config = { ...route.config, ...cors, ...(auth ? {} : { rateLimit: false }) };
  });
}

export default fp(routeDefaults, { name: 'sector-route-defaults' });
