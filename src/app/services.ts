// The composition root: every service, built once per process from config and database, and the
// one list of background workers.
import type { Config } from '../config.js';
import type { Db } from '../core/db/connection.js';
import { type Clock, systemClock } from '../core/domain/time.js';
import type { PageAssets } from '../features/calendar/schedule-page.view.js';
import { readSnapshot } from '../core/db/transaction.js';
import { readRepositories, type ReadRepositories } from './repositories.js';
import { VERSION } from '../version.js';
import { ActivityService } from '../features/activity/activity.service.js';
import { activityRecomputeWorker } from '../features/activity/recompute.worker.js';
import { apiKeyUseWorker } from '../features/api-keys/use.worker.js';
import { auditRetentionWorker } from '../features/audit/retention.worker.js';
import { dataFeedWorker } from '../features/activity/data-feed.worker.js';
import { endorsementExpiryWorker } from '../features/endorsements/expiry.worker.js';
import { eventRetentionWorker } from '../features/events/retention.worker.js';
import { eventStreamHeartbeatWorker } from '../features/events/stream-heartbeat.worker.js';
import { eventStreamWorker } from '../features/events/stream.worker.js';
import { idempotencyKeysWorker } from '../features/bookings/idempotency-keys.worker.js';
import { mailDeliveriesWorker } from '../features/operations/mail.worker.js';
import { networkPushesWorker } from '../features/network/pushes.worker.js';
import { rosterSyncWorker } from '../features/roster/roster-sync.worker.js';
import { trainingInterestWorker } from '../features/trainings/interest.worker.js';
import { webhookDeliveriesWorker } from '../features/webhooks/deliveries.worker.js';
import { ActivityBackfill } from '../features/activity/backfill.service.js';
import { ApiKeyService } from '../features/api-keys/api-keys.service.js';
import { AuditLog } from '../features/audit/audit.service.js';
import { Bookings } from '../features/bookings/bookings.service.js';
import { CalendarFeeds } from '../features/calendar/calendar.service.js';
import { DeprecatedLists } from '../features/deprecated/deprecated.service.js';
import { Endorsements } from '../features/endorsements/endorsements.service.js';
import { EventStream } from '../features/events/stream.service.js';
import { Exports } from '../features/transfer/export.service.js';
import { FeedPoll } from '../features/activity/feed.service.js';
import { Health } from '../features/operations/health.service.js';
import { HttpClient } from '../core/http-client.js';
import { Idempotency } from '../features/bookings/idempotency.service.js';
import { Imports } from '../features/transfer/import.service.js';
import { MemberBookings } from '../features/bookings/member-bookings.service.js';
import { Metrics } from '../core/metrics.js';
import { NetworkPushes } from '../features/network/pushes.service.js';
import { NetworkStatus } from '../features/network/status.service.js';
import { OnlineNow } from '../features/activity/online.service.js';
import { outboxMetrics, webhooksDisabledMetric } from '../features/events/outbox-metrics.js';
import { pageAssets } from '../core/web/page-assets.js';
import { Positions } from '../features/positions/positions.service.js';
import { Roles } from '../features/staff/roles.service.js';
import { StaffDesk } from '../features/staff/staff.service.js';
import { RosterSync } from '../features/roster/roster-sync.service.js';
import { MemberSessions, SignIn } from '../features/sign-in/sign-in.service.js';
import { MailDeliveries } from '../features/operations/mail.service.js';
import { TrainingApplications } from '../features/trainings/applications.service.js';
import { TrainingRecords } from '../features/trainings/records.service.js';
import { TrainingDesk } from '../features/trainings/desk.service.js';
import { Trainings } from '../features/trainings/trainings.service.js';
import { Users } from '../features/users/users.service.js';
import { DemoSignIn } from '../features/sign-in/demo.service.js';
import { WebhookSubscriptions } from '../features/webhooks/subscriptions.service.js';
import { workerMetrics } from '../core/workers/metrics.js';
import type { Worker } from '../core/workers/worker.js';
import { Workers } from '../core/workers/workers.js';
import { Writer } from '../core/write.js';
import type { ServiceDeps } from './deps.js';

/** Every service routes and commands use; neither the database nor the repositories. */
export interface AppServices {
  config: Config;
  clock: Clock;
  keys: ApiKeyService;
  imports: Imports;
  exports: Exports;
  audit: AuditLog;
  health: Health;
  /** The public list, and positions added, changed and removed by staff (contract §17). */
  positions: Positions;
  endorsements: Endorsements;
  roles: Roles;
  /** Trainings by staff, their reports and examinations, and the student's side (contract §18). */
  trainings: Trainings;
  trainingRecords: TrainingRecords;
  applications: TrainingApplications;
  /** What the staff training pages read. */
  trainingDesk: TrainingDesk;
  /** What the staff pages read (their changes go through positions, endorsements and roles). */
  staff: StaffDesk;
  bookings: Bookings;
  /** Idempotency-Key on the bookings' creates: claims, stored responses, replays. */
  idempotency: Idempotency;
  /** Members' own bookings (the booking pages): who-may-book over bookings, and their calendar feeds. */
  memberBookings: MemberBookings;
  users: Users;
  deprecated: DeprecatedLists;
  /** GET /calendar/bookings.ics and the schedule page. */
  calendar: CalendarFeeds;
  /** GET /api/events: one tail of the outbox per process for every connected client. */
  eventStream: EventStream;
  webhooks: WebhookSubscriptions;
  /** Pushes bookings to the network's bookings service (a worker); null when sync is not configured. */
  networkPushes: NetworkPushes | null;
  networkStatus: NetworkStatus;
  roster: RosterSync;
  activity: ActivityService;
  backfill: ActivityBackfill;
  /** Who is online now (GET /api/online, the schedule page). */
  online: OnlineNow;
  /** Null when METRICS=0. */
  metrics: Metrics | null;
  /** The pages' stylesheet, script and icon URLs. */
  pageAssets: PageAssets;
  /** Members' sessions (request.member on page routes). */
  sessions: MemberSessions;
  /** Signing members in with the network's account; null when sign-in is off. */
  signIn: SignIn | null;
  /** `npm run demo` only: signing in as a demo person with one click. */
  demoSignIn: DemoSignIn | null;
  /** Every request to another service (webhooks, the network); closed at shutdown. */
  http: HttpClient;
  /** The background work: started and stopped by the server only. */
  workers: Workers;
  /** Ends outbound requests and the mail transport and closes the database (the workers first, when they run). */
  close(): Promise<void>;
}

/** What routes see: the services (src/routes never reach the database or the repositories). */
export type RouteServices = AppServices;

/** The services with what they are built on, for the composition (server, tests). */
export interface ComposedServices extends AppServices {
  db: Db;
  repos: ReadRepositories;
  /** Every change goes through it: one transaction, with its events, audit entries and pushes. */
  writer: Writer;
}

export function createServices(config: Config, db: Db, clock: Clock = systemClock): ComposedServices {
  const repos = readRepositories(db.kysely, db.dialect);
  // A commit that wrote events wakes their consumers at once; other instances' commits are found by their polls.
  const writer = new Writer(db, clock, { networkSync: config.network !== null, mail: config.mail !== null }, (what) => {
    for (const name of what === 'mail' ? ['mail-deliveries'] : ['webhook-deliveries', 'network-pushes', 'event-stream']) workers.wake(name);
  });
  const http = new HttpClient();
  const snapshot: ServiceDeps['snapshot'] = (read) => readSnapshot(db, (trx) => read(readRepositories(trx, db.dialect)));
  const deps: ServiceDeps = { config, clock, writer, repos, snapshot, http };
  const keys = new ApiKeyService(deps);
  const eventStream = new EventStream({
    ...deps,
    limits: { perKey: config.eventsMaxStreamsPerKey, total: config.eventsMaxStreams },
    validKeys: (ids) => keys.stillValid(ids),
  });
  const division = { division: config.division, subdivisions: config.subdivisions };
  const networkPushes = config.network ? new NetworkPushes({ ...deps, network: config.network, division }) : null;
  const metrics = config.metrics
    ? new Metrics({ liveBookings: () => repos.bookings.countLive() }, [outboxMetrics(repos.outboxFigures, clock, networkPushes)])
    : null;
  if (metrics) db.addQueryListener(metrics.observeQuery);
  const activity = new ActivityService(deps);
  const roster = new RosterSync({ ...deps, coreApi: config.coreApi, membership: division });
  const feed = config.dataFeed
    ? new FeedPoll({
        ...deps,
        feed: config.dataFeed,
        onEnded: async (cids) => {
          await activity.recompute(cids);
        },
      })
    : null;
  const bookings = new Bookings(deps);
  const idempotency = new Idempotency(deps);
  const endorsements = new Endorsements(deps);
  const trainings = new Trainings(deps);
  const applications = new TrainingApplications({ ...deps, trainings });
  const sessions = new MemberSessions(deps);
  const online = new OnlineNow(deps);
  const assets = pageAssets();
  const countDisabled = metrics ? webhooksDisabledMetric(metrics.registry) : undefined;
  const mail = config.mail ? new MailDeliveries({ ...deps, mail: config.mail }) : null;
  // Every piece of background work, in one list (docs/architecture.md names them all).
  const coreApi = config.coreApi;
  const hasRoster = division.division !== null || division.subdivisions.length > 0;
  const background: Worker[] = [
    // The demo delivers no webhooks: nothing leaves the computer (src/app/demo-mode.ts).
    ...(config.demo
      ? []
      : [
          webhookDeliveriesWorker({
            writer,
            repos,
            http,
            options: {
              timeoutMs: config.webhookTimeoutMs,
              retryBaseMs: config.webhookRetryBaseMs,
              maxAttempts: config.webhookMaxAttempts,
              disableAfterMs: config.webhookDisableAfterMs,
              ...(countDisabled ? { onDisabled: countDisabled } : {}),
            },
          }),
        ]),
    ...(networkPushes ? [networkPushesWorker({ networkPushes })] : []),
    eventStreamWorker({ eventStream }),
    eventStreamHeartbeatWorker({ eventStream, heartbeatMs: config.eventStreamHeartbeatMs }),
    eventRetentionWorker({ config, writer }),
    apiKeyUseWorker({ keys }),
    ...(config.auditRetentionDays !== null ? [auditRetentionWorker({ writer, retentionDays: config.auditRetentionDays })] : []),
    endorsementExpiryWorker({ writer }),
    idempotencyKeysWorker({ writer }),
    trainingInterestWorker({ applications }),
    ...(mail && config.mail ? [mailDeliveriesWorker({ mail, config: config.mail })] : []),
    ...(coreApi.key !== null && coreApi.rosterSyncHours > 0 && hasRoster ? [rosterSyncWorker({ config, roster })] : []),
    ...(config.dataFeed && feed ? [dataFeedWorker({ feed: config.dataFeed, poll: feed })] : []),
    ...(config.activity.hours !== null ? [activityRecomputeWorker({ activity })] : []),
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
  return {
    config,
    clock,
    db,
    repos,
    writer,
    keys,
    imports: new Imports(deps),
    exports: new Exports(deps),
    audit: new AuditLog(deps),
    health: new Health(deps),
    positions: new Positions(deps),
    endorsements,
    roles: new Roles(deps),
    trainings,
    trainingRecords: new TrainingRecords({ ...deps, trainings }),
    applications,
    trainingDesk: new TrainingDesk(deps),
    staff: new StaffDesk({ ...deps, activity }),
    bookings,
    idempotency,
    memberBookings: new MemberBookings({ ...deps, bookings, version: VERSION }),
    users: new Users(deps),
    deprecated: new DeprecatedLists(deps),
    calendar: new CalendarFeeds({
      ...deps,
      version: VERSION,
      assets,
      signIn: config.signIn !== null || config.demo,
      // Without the data feed nothing is known of who is on: the page shows no such section.
      ...(config.dataFeed ? { online: () => online.controllers() } : {}),
    }),
    eventStream,
    webhooks: new WebhookSubscriptions(deps),
    networkPushes,
    networkStatus: new NetworkStatus(deps),
    roster,
    activity,
    backfill: new ActivityBackfill({
      ...deps,
      coreApi: config.coreApi,
      membership: division,
      spacingMs: config.coreApi.backfillSpacingMs,
    }),
    online,
    metrics,
    pageAssets: assets,
    sessions,
    signIn: config.signIn ? new SignIn({ ...deps, signIn: config.signIn, sessions }) : null,
    demoSignIn: config.demo ? new DemoSignIn({ ...deps, sessions }) : null,
    http,
    workers,
    close: async () => {
      http.close();
      mail?.close();
      await db.close();
    },
  };
}
