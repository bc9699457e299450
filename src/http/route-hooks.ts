import type { FastifyReply, FastifyRequest, RouteOptions } from 'fastify';

type HookName = 'onRequest' | 'preParsing' | 'preValidation' | 'onSend' | 'onResponse';

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

type RequestHook = (request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void) => void;

/** A request hook run as a pre-parsing hook (which also passes the payload stream on). */
export const preParsing =
  (hook: RequestHook) =>
  (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err?: Error | null, payload?: unknown) => void) =>
    hook(request, reply, (err?: Error) => (err ? done(err) : done(null, payload)));
