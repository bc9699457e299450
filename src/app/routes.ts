import type { FastifyInstance } from 'fastify';
import type { RouteServices } from './services.js';
import apiRoutes from './scopes/api.js';
import pageRoutes from './scopes/pages.js';
import { publicRoutes } from './scopes/public.js';
import type { ScopeRoutes } from './scopes/index.js';

export type { Scope, ScopeRoutes } from './scopes/index.js';

/**
 * Every route in its scope: the API (bearer keys), the pages (the public ones, the members' and the
 * staff's) and public routes. Handlers get services, never the database.
 */
export async function registerRoutes(
  app: FastifyInstance,
  services: RouteServices,
  sessionSecret: string,
  extra: ScopeRoutes = {},
): Promise<void> {
  await app.register(apiRoutes, { services, extra: extra.api });
  await app.register(pageRoutes, { services, sessionSecret, extra });
  await app.register(publicRoutes, { services, extra: extra.public });
}
