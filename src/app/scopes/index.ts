// The scopes a route can be registered in (src/app/routes.ts); each guards every route in it with
// one hook where it is registered (public ones with none).
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { FEATURES } from '../features.js';
import type { RouteServices } from '../services.js';

export type Scope = 'api' | 'public' | 'publicPages' | 'members' | 'staff';

/** Routes to add to scopes beyond the application's own (tests prove each scope's guard with throwaway routes). */
export type ScopeRoutes = Partial<Record<Scope, FastifyPluginAsync>>;

export interface ScopeOptions {
  services: RouteServices;
  /** More routes for the scope, registered after its own. */
  extra?: FastifyPluginAsync | undefined;
}

/** Every feature's routes for the scope, in the order of FEATURES, then the extra ones. */
export async function registerScope(
  app: FastifyInstance,
  scope: Scope,
  services: RouteServices,
  extra: FastifyPluginAsync | undefined,
): Promise<void> {
  for (const feature of FEATURES) for (const routes of feature.routes?.[scope] ?? []) await app.register(routes, { services });
  if (extra) await app.register(extra);
}
