import type { RouteOptions } from 'fastify';

type HookName = 'onRequest' | 'preParsing' | 'preValidation' | 'onResponse';

/**
 * Adds a hook to one route, first or last among the route's own hooks (which run after the
 * application's). Plugins attach per-route hooks from an onRoute hook, so that what a route
 * needs (its auth level, its metrics label) is worked out once at registration, never per
 * request, and routes that need nothing pay nothing.
 */
export function addRouteHook(route: RouteOptions, name: HookName, hook: unknown, where: 'first' | 'last' = 'last'): void {
  const current = route[name] as unknown;
  const list: unknown[] = Array.isArray(current) ? [...(current as unknown[])] : current === undefined ? [] : [current];
  if (where === 'first') list.unshift(hook);
  else list.push(hook);
  (route as unknown as Record<HookName, unknown[]>)[name] = list;
}
