import type { FastifyInstance } from 'fastify';
import { registerAssets } from '../http/assets.js';
import type { RouteServices } from '../services/index.js';
import apiRoutes from './api.js';
import healthRoutes from './health/index.js';
import memberCalendarRoutes from './member-calendar/index.js';
import metricsRoutes from './metrics/index.js';
import pageRoutes from './pages.js';

/** Every route in its scope: the API, the pages, and public routes. Handlers get services, never the database. */
export async function registerRoutes(app: FastifyInstance, services: RouteServices, sessionSecret: string): Promise<void> {
  await app.register(apiRoutes, { services });
  await app.register(pageRoutes, { services, sessionSecret });
  await app.register(healthRoutes, { services });
  if (services.metrics) await app.register(metricsRoutes, { metrics: services.metrics });
  await app.register(memberCalendarRoutes, { services });
  await registerAssets(app);
}
