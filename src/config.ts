// The one place environment variables are read. Everything else receives a typed Config.

import path from 'node:path';
import type { ApiVariant } from './features/members/domain/includes.js';
import {
  mailConfig,
  type MailConfig,
  networkAddress,
  networkConfig,
  divisionApiConfig,
  type DivisionApiConfig,
  publicUrl,
  signInConfig,
  type NetworkConfig,
  type SignInConfig,
} from './app/config-services.js';
import { projectRoot } from './core/project-root.js';

export type { ApiVariant } from './features/members/domain/includes.js';
export type ApiCompat = 'none' | 'controlcenter';
export { networkAddress, type NetworkConfig, type SignInConfig, type DivisionApiConfig } from './app/config-services.js';

export interface Config {
  host: string;
  port: number;
  databaseUrl: string;
  division: string | null;
  subdivisions: string[];
  apiVariant: ApiVariant;
  apiCompat: ApiCompat;
  /** Requests per minute per key (or per IP without one); 0 disables the limit. */
  rateLimit: number;
  logLevel: string;
  /** Maximum connections in the PostgreSQL pool. */
  dbPoolSize: number;
  /** PostgreSQL statement_timeout in milliseconds (0 = none). */
  dbStatementTimeoutMs: number;
  trustProxy: boolean;
  /** Longest a client may take to send a whole request (headers included) before it is cut off. */
  requestTimeoutMs: number;
  /** SQLite commit durability: FULL survives power loss, NORMAL a process crash. */
  sqliteSynchronous: 'FULL' | 'NORMAL';
  /** The division's name as the schedule page and calendar feeds title it. */
  siteName: string;
  /** The domain of calendar event UIDs (booking-<id>@<siteHost>): changing it makes every event new. */
  siteHost: string;
  /** Events and delivery attempts older than this many days are pruned (docs/events.md). */
  eventRetentionDays: number;
  /** One webhook attempt, from connecting to the end of the response, must end within this. */
  webhookTimeoutMs: number;
  /** First retry delay; doubles per attempt, capped at an hour. */
  webhookRetryBaseMs: number;
  webhookMaxAttempts: number;
  /** A subscription whose every attempt failed for this long is disabled (WEBHOOK_DISABLE_AFTER_HOURS). */
  webhookDisableAfterMs: number;
  /** Comment lines on idle event streams (15 s; shorter in tests only). */
  eventStreamHeartbeatMs: number;
  /** Open GET /api/events streams per API key, in this process. */
  eventsMaxStreamsPerKey: number;
  /** Open GET /api/events streams in all, in this process. */
  eventsMaxStreams: number;
  /** Bytes an event stream client may fall behind before it is dropped (it resumes with Last-Event-ID). */
  eventStreamBufferBytes: number;
  /** Pushing bookings to the network's ATC bookings service; null when not configured. */
  network: NetworkConfig | null;
  /** The division's hub (DIVISION_API, contract §22); null: nothing is sent. */
  divisionApi: DivisionApiConfig | null;
  /** Audit entries older than this many days are pruned by the server; null keeps them forever. */
  auditRetentionDays: number | null;
  /** FEEDBACK_FORWARD_TO: an address that gets a copy of each feedback through the mail outbox (§23); null: none. */
  feedbackForwardTo: string | null;
  /** Whether GET /metrics responds (METRICS=0 turns it off). */
  metrics: boolean;
  /** The address people use, without a trailing slash (PUBLIC_URL; default http://HOST:PORT). */
  publicUrl: string;
  /** Members' sign-in with the network's account (docs/sign-in.md); null when it is off. */
  signIn: SignInConfig | null;
  /** Signs the session cookie (SESSION_SECRET); null: generated at first start and kept in the database. Never logged. */
  sessionSecret: string | null;
  /** The network's API v2 (roster, members' ATC history); `key` null = no roster sync. */
  coreApi: CoreApiConfig;
  /** The network's public data feed; null when DATA_FEED_URL=off. */
  dataFeed: DataFeedConfig | null;
  /** How ATC activity is computed from sessions; `hours` null = activity stays as imported. */
  activity: ActivityConfig;
  /** `npm run demo` (src/app/demo-mode.ts): the demo sign-in on, everything that leaves the computer off. */
  demo: boolean;
  /** The demo's own database (sqlite:./data/demo.db; tests give another file). */
  demoDatabaseUrl: string;
  /** Mail to students (SMTP_URL, MAIL_FROM); null: nothing is sent. */
  mail: MailConfig | null;
}

export interface CoreApiConfig {
  /** Without a trailing slash, e.g. https://api.vatsim.net. */
  url: string;
  /** Sent as X-API-Key. Never logged. */
  key: string | null;
  /** Hours between roster syncs run by the server; 0 = only by command. */
  rosterSyncHours: number;
  /** One request to the network's API, response included, must end within this. */
  timeoutMs: number;
  /** Time between two requests of the history backfill (6 s: 10 a minute). */
  backfillSpacingMs: number;
}

export interface DataFeedConfig {
  url: string;
  intervalS: number;
}

export interface ActivityConfig {
  /** Hours needed in the period to be active in an area; null = not computed. */
  hours: number | null;
  periodMonths: number;
  graceMonths: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export type Env = Record<string, string | undefined>;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const str = (name: string, fallback: string): string => {
    const v = env[name];
    return v === undefined || v.trim() === '' ? fallback : v.trim();
  };
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = str(name, String(fallback));
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  };
  const decimal = (name: string, fallback: number, min: number, max: number): number => {
    const raw = str(name, String(fallback));
    if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) < min || Number(raw) > max) {
      problems.push(`${name} must be a number from ${min} to ${max}, decimals allowed (got "${raw}")`);
      return fallback;
    }
    return Number(raw);
  };
  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const raw = str(name, fallback);
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  };

  const databaseUrl = rootedSqlite(str('DATABASE_URL', 'sqlite:./data/sector.db'));
  if (!/^sqlite:.+/.test(databaseUrl) && !/^postgres(ql)?:\/\/.+/.test(databaseUrl)) {
    problems.push('DATABASE_URL must be sqlite:PATH, sqlite::memory: or postgres://user@host:port/db');
  }
  const division = str('DIVISION', '');
  const subdivisions = str('SUBDIVISIONS', '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

  const config: Config = {
    host: str('HOST', '127.0.0.1'),
    port: int('PORT', 8080, 0, 65535),
    databaseUrl,
    division: division === '' ? null : division,
    subdivisions,
    apiVariant: oneOf('API_VARIANT', 'newer', ['newer', 'older'] as const),
    apiCompat: oneOf('API_COMPAT', 'none', ['none', 'controlcenter'] as const),
    rateLimit: int('RATE_LIMIT', 600, 0, 1_000_000_000),
    logLevel: oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    dbPoolSize: int('DB_POOL_SIZE', 10, 1, 1000),
    dbStatementTimeoutMs: int('DB_STATEMENT_TIMEOUT_MS', 5000, 0, 3_600_000),
    trustProxy: oneOf('TRUST_PROXY', 'false', ['true', 'false'] as const) === 'true',
    sqliteSynchronous: oneOf('SQLITE_SYNCHRONOUS', 'FULL', ['FULL', 'NORMAL'] as const),
    requestTimeoutMs: int('REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000),
    eventRetentionDays: int('EVENT_RETENTION_DAYS', 7, 1, 3650),
    webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', 10_000, 100, 300_000),
    webhookRetryBaseMs: int('WEBHOOK_RETRY_BASE_MS', 5000, 1, 3_600_000),
    webhookMaxAttempts: int('WEBHOOK_MAX_ATTEMPTS', 10, 1, 100),
    webhookDisableAfterMs: Math.round(decimal('WEBHOOK_DISABLE_AFTER_HOURS', 120, 0.001, 100_000) * 3_600_000),
    // Undocumented: lets tests see heartbeats without waiting 15 s.
    eventStreamHeartbeatMs: int('SECTOR_EVENT_STREAM_HEARTBEAT_MS', 15_000, 10, 3_600_000),
    eventsMaxStreamsPerKey: int('EVENTS_MAX_STREAMS_PER_KEY', 10, 1, 30_000),
    // Bounded so that one query can ask about every open stream's key at a heartbeat.
    eventsMaxStreams: int('EVENTS_MAX_STREAMS', 1000, 1, 30_000),
    eventStreamBufferBytes: int('SECTOR_EVENT_STREAM_BUFFER_BYTES', 1024 * 1024, 1024, 1024 * 1024 * 1024),
    network: null,
    divisionApi: null,
    auditRetentionDays: str('AUDIT_RETENTION_DAYS', '') === '' ? null : int('AUDIT_RETENTION_DAYS', 0, 1, 100_000),
    feedbackForwardTo: str('FEEDBACK_FORWARD_TO', '').trim() === '' ? null : str('FEEDBACK_FORWARD_TO', '').trim(),
    metrics: oneOf('METRICS', '1', ['0', '1'] as const) === '1',
    siteName: str('SITE_NAME', 'Sector'),
    siteHost: str('SITE_HOST', 'sector'),
    publicUrl: '',
    signIn: null,
    sessionSecret: str('SESSION_SECRET', '') === '' ? null : str('SESSION_SECRET', ''),
    coreApi: { url: '', key: null, rosterSyncHours: 0, timeoutMs: 0, backfillSpacingMs: 0 },
    dataFeed: null,
    activity: { hours: null, periodMonths: 12, graceMonths: 12 },
    mail: null,
    demo: false,
    // Undocumented: lets tests give each demo a file of its own.
    demoDatabaseUrl: rootedSqlite(str('SECTOR_DEMO_DATABASE', 'sqlite:./data/demo.db')),
  };
  config.network = networkConfig(str, int, problems);
  config.divisionApi = divisionApiConfig(str, int, problems);
  config.publicUrl = publicUrl(str('PUBLIC_URL', ''), config.host, config.port, problems);
  config.signIn = signInConfig(str, int, problems);
  config.mail = mailConfig(str, int, problems);
  if (config.sessionSecret !== null && config.sessionSecret.length < 32) {
    problems.push('SESSION_SECRET must be at least 32 characters (or unset: one is generated and kept in the database)');
  }
  config.coreApi = {
    url: networkAddress('CORE_API_URL', str('CORE_API_URL', 'https://api.vatsim.net'), problems) ?? '',
    key: str('CORE_API_KEY', '') === '' ? null : str('CORE_API_KEY', ''),
    rosterSyncHours: decimal('ROSTER_SYNC_HOURS', 12, 0, 100_000),
    timeoutMs: int('CORE_API_TIMEOUT_MS', 30_000, 100, 300_000),
    // Undocumented: lets tests read a history without waiting 6 s a page.
    backfillSpacingMs: int('SECTOR_BACKFILL_SPACING_MS', 6000, 0, 3_600_000),
  };
  if (config.coreApi.key !== null && /\s/.test(config.coreApi.key)) problems.push('CORE_API_KEY must not contain spaces');
  const feedUrl = str('DATA_FEED_URL', 'https://data.vatsim.net/v3/vatsim-data.json');
  config.dataFeed =
    feedUrl === 'off'
      ? null
      : { url: networkAddress('DATA_FEED_URL', feedUrl, problems) ?? feedUrl, intervalS: int('DATA_FEED_INTERVAL_S', 60, 1, 86_400) };
  config.activity = {
    hours: str('ACTIVITY_HOURS', '') === '' ? null : decimal('ACTIVITY_HOURS', 0, 0, 100_000),
    periodMonths: int('ACTIVITY_PERIOD_MONTHS', 12, 1, 120),
    graceMonths: int('ACTIVITY_GRACE_MONTHS', 12, 0, 120),
  };
  if (config.siteName.length > 100 || /[\u0000-\u001f\u007f]/.test(config.siteName)) {
    problems.push('SITE_NAME must be at most 100 characters, without control characters');
  }
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(config.siteHost)) {
    problems.push(`SITE_HOST must be a domain name such as sector.example.org (got "${config.siteHost}")`);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

// A relative SQLite path is taken from Sector's folder, so the server and every CLI command use the
// same database wherever they are started.
function rootedSqlite(url: string): string {
  if (!url.startsWith('sqlite:')) return url;
  const file = url.slice('sqlite:'.length);
  if (file === '' || file === ':memory:' || path.isAbsolute(file)) return url;
  return `sqlite:${path.resolve(projectRoot(), file)}`;
}
