// Public routes: anyone may call them, no guard. At the root: health, metrics, a member's calendar
// feed (its secret address grants it), the assets (and the API docs, src/core/web/openapi.ts). In the
// page scope: the schedule and signing in, which know the signed-in member but open for anyone.
import type { FastifyPluginAsync } from 'fastify';
import { registerAssets } from '../../core/web/assets.js';
import { publicPageGuard } from '../../core/web/pages.js';
import { registerScope, type ScopeOptions } from './index.js';

export const publicRoutes: FastifyPluginAsync<ScopeOptions> = async (app, { services, extra }) => {
  await registerScope(app, 'public', services, undefined);
  await registerAssets(app);
  if (extra) await app.register(extra);
};

/** The public pages: open to anyone; a signed-in member's form (signing out) still carries their token. */
export const publicPages: FastifyPluginAsync<ScopeOptions> = async (pages, { services, extra }) => {
  pages.addHook('preValidation', publicPageGuard);
  await registerScope(pages, 'publicPages', services, extra);
};
