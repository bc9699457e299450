import type { FastifyInstance } from 'fastify';
import type { RouteServices } from '../services/index.js';
import authRoutes from './auth/index.js';
import bookingsRoutes from './bookings/index.js';
import calendarRoutes from './calendar/index.js';
import healthRoutes from './health/index.js';
import metricsRoutes from './metrics/index.js';
import positionsRoutes from './positions/index.js';
import usersRoutes from './users/index.js';
import deprecatedRoutes from './deprecated/index.js';
import eventsRoutes from './events/index.js';
import memberBookingsRoutes from './member-bookings/index.js';
import onlineRoutes from './online/index.js';

/**
 * Every resource's routes. Each module owns its handlers; their schemas are in src/schemas/. They
 * get the services routes may use, not the database.
 */
export async function registerRoutes(app: FastifyInstance, services: RouteServices): Promise<void> {
  await app.register(healthRoutes, { services });
  if (services.metrics) await app.register(metricsRoutes, { metrics: services.metrics });
  await app.register(positionsRoutes, { services });
  await app.register(onlineRoutes, { services });
  await app.register(bookingsRoutes, { services });
  await app.register(usersRoutes, { services });
  await app.register(deprecatedRoutes, { services });
  await app.register(calendarRoutes, { services });
  await app.register(eventsRoutes, { services });
  await app.register(authRoutes, { services });
  await app.register(memberBookingsRoutes, { services });
}
