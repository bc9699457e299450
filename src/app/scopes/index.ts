// The scopes a route can be registered in (src/app/routes.ts); each guards every route in it with
// one hook where it is registered (public ones with none).
import type { FastifyPluginAsync } from 'fastify';
import type { RouteServices } from '../services.js';

export type Scope = 'api' | 'public' | 'publicPages' | 'members' | 'staff';

/** Routes to add to scopes beyond the application's own (tests prove each scope's guard with throwaway routes). */
export type ScopeRoutes = Partial<Record<Scope, FastifyPluginAsync>>;

export interface ScopeOptions {
  services: RouteServices;
  /** More routes for the scope, registered after its own. */
  extra?: FastifyPluginAsync | undefined;
}
