import type { Config } from '../config.js';
import type { Db } from '../db/connection.js';
import { type Clock, systemClock } from '../domain/time.js';
import { ApiKeyService } from './api-keys.js';
import { createRepositories, type Repositories } from '../repositories/index.js';
import { VERSION } from '../version.js';
import { ActivityService } from './activity.js';
import { BookingLookup } from './booking-lookup.js';
import { BookingWrites } from './bookings.js';
import { BookingLists } from './bookings-lists.js';
import { CalendarAnswers } from './calendar.js';
import { DeprecatedUserLists } from './deprecated-users.js';
import { Imports } from './import.js';
import { Writer } from './write.js';
import { EventStream, eventStreamWorkers } from './events/stream.js';
import { Health } from './health.js';
import { HttpClient } from './http-client.js';
import { NetworkPushes } from './network/pusher.js';
import { MemberBookings } from './member-bookings.js';
import { Metrics, type MetricsExtension } from './metrics.js';
import { outboxMetrics, webhooksDisabledMetric } from './outbox-metrics.js';
import { WebhookDeliveries } from './webhooks/dispatcher.js';
import { builtInWorkers } from './workers/built-in.js';
import { workerMetrics } from './workers/metrics.js';
import { networkWorkers } from './workers/network.js';
import type { Worker } from './workers/worker.js';
import { Workers } from './workers/workers.js';
import { pageAssets } from './page-assets.js';
import { OnlineNow } from './online.js';
import { PositionsList } from './positions.js';
import type { PageAssets } from '../presenters/schedule-page.js';
import { MemberSessions, SignIn } from './sign-in/index.js';
import { UsersList } from './users-list.js';

/** Everything a route or command needs, built once per process from config and database. */
export interface AppServices {
  config: Config;
  db: Db;
  clock: Clock;
  repos: Repositories;
  /** Every change goes through it: one transaction, with its events, audit entries and pushes. */
  writer: Writer;
  keys: ApiKeyService;
  imports: Imports;
  health: Health;
  positions: PositionsList;
  bookingLists: BookingLists;
  bookingLookup: BookingLookup;
  bookingWrites: BookingWrites;
  /** Members' own bookings (the booking pages): who-may-book over bookingWrites, and their calendar feeds. */
  memberBookings: MemberBookings;
  usersList: UsersList;
  deprecatedUsers: DeprecatedUserLists;
  /** GET /calendar/bookings.ics and the schedule page. */
  calendar: CalendarAnswers;
  /** The background work (started and stopped by the server only). */
  workers: Workers;
  /** GET /api/events: tails the outbox once per process for every connected client. */
  eventStream: EventStream;
  /** Pushes bookings to the network's bookings service (a worker); null when sync is not configured. */
  networkPushes: NetworkPushes | null;
  /** Null when METRICS=0. */
  metrics: Metrics | null;
  /** The pages' stylesheet, script and icon URLs. */
  pageAssets: PageAssets;
  /** Members' sessions (request.member on page routes). */
  sessions: MemberSessions;
  /** Signing members in with the network's account; null when sign-in is off. */
  signIn: SignIn | null;
  /** ATC activity from the recorded sessions (ACTIVITY_HOURS). */
  activity: ActivityService;
  /** Who is online now (GET /api/online, the schedule page). */
  online: OnlineNow;
  /** Every request to another service (webhooks, the network); closed at shutdown. */
  http: HttpClient;
}

/**
 * What routes see: the services, never the database handle or the repositories, so a handler
 * cannot skip the service that owns a query, its transaction and its cache.
 */
export type RouteServices = Omit<AppServices, 'db' | 'repos'>;

export function createServices(config: Config, db: Db, clock: Clock = systemClock): AppServices {
  const repos = createRepositories(db);
  // A commit that wrote events wakes their consumers at once; other instances' commits are found by their polls.
  const writer = new Writer(db, clock, config.network !== null, () => {
    for (const name of ['webhook-deliveries', 'network-pushes', 'event-stream']) workers.wake(name);
  });
  const keys = new ApiKeyService(writer, clock);
  const eventStream = new EventStream(db, { perKey: config.eventsMaxStreamsPerKey, total: config.eventsMaxStreams }, (ids) =>
    keys.stillValid(ids),
  );
  const http = new HttpClient();
  const networkPushes = config.network
    ? new NetworkPushes({
        writer,
        config: config.network,
        http,
        division: { division: config.division, subdivisions: config.subdivisions },
        clock,
      })
    : null;
  // Gauges and counters of the outbox, webhook deliveries and network pushes register here.
  const metricsExtensions: MetricsExtension[] = [outboxMetrics(repos.outboxFigures, clock, networkPushes)];
  const metrics = config.metrics ? new Metrics({ liveBookings: () => repos.bookings.countLive() }, metricsExtensions) : null;
  if (metrics) db.addQueryListener(metrics.observeQuery);
  const activity = new ActivityService(writer, config.activity, clock);
  const countDisabled = metrics ? webhooksDisabledMetric(metrics.registry) : undefined;
  // Every piece of background work, in one list.
  const background: Worker[] = [
    new WebhookDeliveries(writer, http, {
      timeoutMs: config.webhookTimeoutMs,
      retryBaseMs: config.webhookRetryBaseMs,
      maxAttempts: config.webhookMaxAttempts,
      disableAfterMs: config.webhookDisableAfterMs,
      ...(countDisabled ? { onDisabled: countDisabled } : {}),
    }),
    ...(networkPushes ? [networkPushes] : []),
    ...eventStreamWorkers(eventStream, config.eventStreamHeartbeatMs),
    ...builtInWorkers({ config, writer, keys }),
    ...networkWorkers({ config, writer, clock, activity, http }),
  ];
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
  const assets = pageAssets();
  const sessions = new MemberSessions(writer, repos.sessions, clock);
  const bookingWrites = new BookingWrites(writer, repos.bookings);
  const online = new OnlineNow(db, clock, config.dataFeed);
  const services: AppServices = {
    config,
    db,
    clock,
    repos,
    writer,
    keys,
    imports: new Imports(writer),
    health: new Health(repos.health),
    positions: new PositionsList(repos.positions),
    bookingLists: new BookingLists(repos.bookings),
    bookingLookup: new BookingLookup(repos.bookings),
    bookingWrites,
    memberBookings: new MemberBookings(repos.members, bookingWrites, config, clock, VERSION),
    usersList: new UsersList(config, db, clock),
    deprecatedUsers: new DeprecatedUserLists(repos.users.deprecated, clock),
    calendar: new CalendarAnswers(repos.calendar, clock, {
      config,
      version: VERSION,
      assets,
      signIn: config.signIn !== null,
      // Without the data feed nothing is known of who is on: the page shows no such section.
      ...(config.dataFeed ? { online: () => online.controllers() } : {}),
    }),
    workers,
    eventStream,
    networkPushes,
    metrics,
    pageAssets: assets,
    sessions,
    signIn: config.signIn ? new SignIn(config.signIn, config.publicUrl, sessions, http) : null,
    activity,
    online,
    http,
  };
  return services;
}
