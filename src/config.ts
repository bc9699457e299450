// The one place environment variables are read. Everything else receives a typed Config.

export type ApiVariant = 'newer' | 'older';
export type ApiCompat = 'none' | 'controlcenter';

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
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

type Env = Record<string, string | undefined>;

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
  const oneOf = <T extends string>(name: string, fallback: T, allowed: readonly T[]): T => {
    const raw = str(name, fallback);
    if (!(allowed as readonly string[]).includes(raw)) {
      problems.push(`${name} must be one of ${allowed.join(', ')} (got "${raw}")`);
      return fallback;
    }
    return raw as T;
  };

  const databaseUrl = str('DATABASE_URL', 'sqlite:./data/sector.db');
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
    siteName: str('SITE_NAME', 'Sector'),
    siteHost: str('SITE_HOST', 'sector'),
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
