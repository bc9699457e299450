// Public routes: anyone may call them, no guard. At the root: health, metrics, a member's calendar
// feed (its secret address grants it), the assets (and the API docs, src/core/web/openapi.ts). In the
// page scope: the schedule and signing in, which know the signed-in member but open for anyone.
import type { FastifyPluginAsync } from 'fastify';
import { publicPageGuard } from '../../core/web/pages.js';
import { registerAssets } from '../../core/web/assets.js';
import healthRoutes from '../../features/operations/health.routes.js';
import memberCalendarRoutes from '../../features/calendar/member-calendar.routes.js';
import metricsRoutes from '../../features/operations/metrics.routes.js';
import scheduleRoutes from '../../features/calendar/schedule.routes.js';
import type { ScopeOptions } from './index.js';
import authRoutes from '../../features/sign-in/sign-in.routes.js';

export const publicRoutes: FastifyPluginAsync<ScopeOptions> = async (app, { services, extra }) => {
  await app.register(healthRoutes, { services });
  if (services.metrics) await app.register(metricsRoutes, { metrics: services.metrics });
  await app.register(memberCalendarRoutes, { services });
  await registerAssets(app);
  if (extra) await app.register(extra);
};

/** The public pages: open to anyone; a signed-in member's form (signing out) still carries their token. */
export const publicPages: FastifyPluginAsync<ScopeOptions> = async (pages, { services, extra }) => {
  pages.addHook('preValidation', publicPageGuard);
  await pages.register(scheduleRoutes, { services });
  await pages.register(authRoutes, { services });
  if (extra) await pages.register(extra);
};
