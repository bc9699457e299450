// The page scope: members' sessions (a signed cookie), CSRF tokens, and HTML errors, for the pages
// people use in a browser (contract §12, §14).
import type { FastifyPluginAsync } from 'fastify';
import memberSession from '../plugins/member-session.js';
import pageRateLimits from '../plugins/page-rate-limits.js';
import type { RouteServices } from '../services/index.js';
import authRoutes from './sign-in/index.js';
import memberBookingsRoutes from './member-bookings/index.js';
import scheduleRoutes from './schedule/index.js';
import trainingPagesRoutes from './training/index.js';
import staffRoutes from './staff/index.js';

const pageRoutes: FastifyPluginAsync<{ services: RouteServices; sessionSecret: string }> = async (pages, { services, sessionSecret }) => {
  const { config } = services;
  await pages.register(memberSession, {
    sessions: services.sessions,
    secret: sessionSecret,
    secureCookies: config.publicUrl.startsWith('https:'),
    signInEnabled: services.signIn !== null || services.demoSignIn !== null,
    siteName: config.siteName,
    assets: services.pageAssets,
  });
  // RATE_LIMIT=0 turns the pages' limits off with the API's.
  if (config.rateLimit > 0) await pages.register(pageRateLimits);
  await pages.register(scheduleRoutes, { services });
  await pages.register(authRoutes, { services });
  await pages.register(memberBookingsRoutes, { services });
  await pages.register(trainingPagesRoutes, { services });
  await pages.register(staffRoutes, { services });
};

export default pageRoutes;
