// The page scope: members' sessions (a signed cookie), CSRF tokens, the pages' rate limits and HTML
// errors, for the pages people use in a browser (contract §12, §14). It identifies the member and
// guards nothing itself: each of its three scopes guards every route in it with one hook.
import type { FastifyPluginAsync } from 'fastify';
import { memberSession } from '../../features/sign-in/index.js';
import pageRateLimits from '../../core/web/plugins/page-rate-limits.js';
import type { RouteServices } from '../services.js';
import type { ScopeRoutes } from './index.js';
import memberRoutes from './members.js';
import { publicPages } from './public.js';
import staffRoutes from './staff.js';

interface PageOptions {
  services: RouteServices;
  sessionSecret: string;
  extra: ScopeRoutes;
}

const pageRoutes: FastifyPluginAsync<PageOptions> = async (pages, { services, sessionSecret, extra }) => {
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
  await pages.register(publicPages, { services, extra: extra.publicPages });
  await pages.register(memberRoutes, { services, extra: extra.members });
  await pages.register(staffRoutes, { services, extra: extra.staff });
};

export default pageRoutes;
