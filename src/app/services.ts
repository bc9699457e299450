// The composition root: every service, built once per process from config and database, and the
// one list of background workers.
import type { Config } from '../config.js';
import type { Db } from '../core/db/connection.js';
import { readSnapshot } from '../core/db/transaction.js';
import { type Clock, systemClock } from '../core/domain/time.js';
import { HttpClient } from '../core/http-client.js';
import { Metrics } from '../core/metrics.js';
import { type PageAssets, pageAssets } from '../core/web/page-assets.js';
import { workerMetrics } from '../core/workers/metrics.js';
import type { Worker } from '../core/workers/worker.js';
import { Workers } from '../core/workers/workers.js';
import { Writer } from '../core/write.js';
import type { EventType } from '../features/events/index.js';
import { liveBookingsMetric } from '../features/bookings/index.js';
import { outboxMetrics } from '../features/operations/index.js';
import { divisionApiMetrics } from '../features/division-api/index.js';
import type { ServiceDeps } from './deps.js';
import { FEATURES, type FeatureServices } from './features.js';
import { createRepositories, readRepositories, type ReadRepositories, type Repositories } from './repositories.js';

/** Every service routes and commands use; neither the database nor the repositories. */
export type AppServices = FeatureServices & {
  config: Config;
  clock: Clock;
  /** Null when METRICS=0. */
  metrics: Metrics | null;
  /** The pages' stylesheet, script and icon URLs. */
  pageAssets: PageAssets;
  /** Every request to another service (webhooks, the network); closed at shutdown. */
  http: HttpClient;
  /** The background work: started and stopped by the server only. */
  workers: Workers;
  /** Ends outbound requests and the mail transport and closes the database (the workers first, when they run). */
  close(): Promise<void>;
};

/** What routes see: the services (src/routes never reach the database or the repositories). */
export type RouteServices = AppServices;

/** The services with what they are built on, for the composition (server, tests). */
export interface ComposedServices extends AppServices {
  db: Db;
  repos: ReadRepositories;
  /** Every change goes through it: one transaction, with its events, audit entries and pushes. */
  writer: Writer<Repositories, EventType>;
}

export function createServices(config: Config, db: Db, clock: Clock = systemClock): ComposedServices {
  const repos = readRepositories(db.kysely, db.dialect);
  // A commit that wrote events wakes their consumers at once; other instances' commits are found by their polls.
  const writer = new Writer<Repositories, EventType>(
    db,
    clock,
    { networkSync: config.network !== null, mail: config.mail !== null },
    (what) => {
      for (const name of what === 'mail' ? ['mail-deliveries'] : ['webhook-deliveries', 'network-pushes', 'event-stream'])
        workers.wake(name);
    },
    createRepositories,
  );
  const http = new HttpClient();
  const snapshot: ServiceDeps['snapshot'] = (read) => readSnapshot(db, (trx) => read(readRepositories(trx, db.dialect)));
  const deps: ServiceDeps = { config, clock, writer, repos, snapshot, http };
  // Each feature's services, in the order of FEATURES: a feature may use those built before it.
  const built: Record<string, unknown> = { pageAssets: pageAssets() };
  for (const feature of FEATURES) Object.assign(built, feature.services?.(deps, built as never));
  const featureServices = built as FeatureServices & { pageAssets: PageAssets };
  const metrics = config.metrics
    ? new Metrics([
        liveBookingsMetric(() => repos.bookings.countLive()),
        outboxMetrics(repos.outboxFigures, clock, featureServices.networkPushes),
        ...(featureServices.divisionApi
          ? [divisionApiMetrics(() => repos.divisionRequests.countPending(), featureServices.divisionApi)]
          : []),
      ])
    : null;
  if (metrics) db.addQueryListener(metrics.observeQuery);
  const services = {
    ...featureServices,
    config,
    clock,
    db,
    repos,
    writer,
    metrics,
    http,
    close: async () => {
      http.close();
      featureServices.mail?.close();
      await db.close();
    },
  };
  // Every piece of background work, in one list (docs/architecture.md names them all).
  const background: Worker[] = FEATURES.flatMap((feature) => feature.workers?.(deps, services) ?? []);
  const workers: Workers = new Workers({
    writer,
    clock,
    workers: background,
    ...(metrics
      ? {
          observer: workerMetrics(
            metrics.registry,
            background.map((w) => w.name),
          ),
        }
      : {}),
  });
  return { ...services, workers };
}
