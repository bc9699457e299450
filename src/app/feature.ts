// What a feature adds to Sector. Each feature's index.ts exports one Feature; the composition root
// (services.ts, scopes/, src/cli/index.ts) collects them in the order of FEATURES (features.ts).
import type { Command } from 'commander';
import type { FastifyPluginAsync } from 'fastify';
import type { Worker } from '../core/workers/worker.js';
import type { ServiceDeps } from './deps.js';
import type { AppServices, RouteServices } from './services.js';
import type { Scope } from './scopes/index.js';

/** Runs a command with the configured database, migrated, and closes it afterwards (src/cli/index.ts). */
export type WithServices = <T>(fn: (services: AppServices) => Promise<T>) => Promise<T>;

/** A route plugin: given the services, registered in a guarded scope (CONTRIBUTING.md, "Where a new route goes"). */
export type RoutePlugin = FastifyPluginAsync<{ services: RouteServices }>;

export interface Feature<S extends object = object, Needs extends object = object> {
  /** Its services, from the one dependencies object and the services of features listed before it. */
  services?: (deps: ServiceDeps, before: Needs) => S;
  /** Its route plugins, by the scope whose one hook guards them. */
  routes?: Partial<Record<Scope, readonly RoutePlugin[]>>;
  /** Its background work, given every service (docs/architecture.md lists them all). */
  workers?: (deps: ServiceDeps, services: Omit<AppServices, 'workers'>) => Worker[];
  /** Its commands, each group registered on the program. */
  cli?: ReadonlyArray<(program: Command, withServices: WithServices) => void>;
}
