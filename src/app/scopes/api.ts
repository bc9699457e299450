// The API scope: bearer keys, the rate limit, CORS on public GETs and JSON errors (the
// application's own handler) for every route of the API (docs/api.md).
import type { FastifyPluginAsync } from 'fastify';
import apiKeys from '../../features/api-keys/api-keys.plugin.js';
import bookingsRoutes from '../../features/bookings/bookings.routes.js';
import calendarRoutes from '../../features/calendar/calendar.routes.js';
import deprecatedRoutes from '../../features/deprecated/deprecated.routes.js';
import endorsementsRoutes from '../../features/endorsements/endorsements.routes.js';
import eventsRoutes from '../../features/events/events.routes.js';
import onlineRoutes from '../../features/activity/online.routes.js';
import positionsRoutes from '../../features/positions/positions.routes.js';
import type { ScopeOptions } from './index.js';
import trainingsRoutes from '../../features/trainings/trainings.routes.js';
import usersRoutes from '../../features/users/users.routes.js';

const apiRoutes: FastifyPluginAsync<ScopeOptions> = async (api, { services, extra }) => {
  await api.register(apiKeys, { keys: services.keys, rateLimit: services.config.rateLimit });
  await api.register(positionsRoutes, { services });
  await api.register(onlineRoutes, { services });
  await api.register(bookingsRoutes, { services });
  await api.register(usersRoutes, { services });
  await api.register(deprecatedRoutes, { services });
  await api.register(endorsementsRoutes, { services });
  await api.register(trainingsRoutes, { services });
  await api.register(calendarRoutes, { services });
  await api.register(eventsRoutes, { services });
  if (extra) await api.register(extra);
};

export default apiRoutes;
