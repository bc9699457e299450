// Request logging: what a request's log line holds, and that no credential reaches the log.
import type { FastifyBaseLogger } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';
import { redactUrl, scrubCredentials } from './redact.js';

/** What the request serializer reads of a Fastify request. */
interface LoggedRequest {
  method: string;
  url: string;
  headers?: Record<string, string | string[] | undefined>;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/**
 * Pino options for request logs: secrets never reach the log. Requests are logged as Fastify
 * does (method, url, host, address), with credentials in the URL replaced; so is any URL quoted in
 * another line.
 */
export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'token'], censor: '[redacted]' },
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        version: request.headers?.['accept-version'] as string | undefined,
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    hooks: { streamWrite: scrubCredentials },
  };
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

/** The pino logger Fastify makes from loggerOptions, as far as request loggers use it. */
interface LevelledLogger extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
}

/**
 * A request's logger, made into a pino child only when something is logged at an enabled level.
 * Fastify gives every request a child logger; making one costs a pino child per request, most of
 * which (below the configured level) never write a line. Its methods live on the prototype: the
 * per-request cost is this one small object.
 */
class LazyChildLogger implements FastifyBaseLogger {
  private made: LevelledLogger | undefined;
  constructor(
    private readonly parent: LevelledLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get real(): LevelledLogger {
    return (this.made ??= this.parent.child(this.bindings, this.options) as LevelledLogger);
  }
  get level(): string {
    return this.made?.level ?? this.options.level ?? this.parent.level;
  }
  set level(level: string) {
    this.real.level = level;
  }
  private at(level: Level, obj: unknown, args: unknown[]): void {
    if (this.made !== undefined || this.options.level !== undefined || this.parent.isLevelEnabled(level)) {
      this.real[level](obj, ...(args as [string | undefined, ...unknown[]]));
    }
  }
  fatal(obj: unknown, ...args: unknown[]): void {
    this.at('fatal', obj, args);
  }
  error(obj: unknown, ...args: unknown[]): void {
    this.at('error', obj, args);
  }
  warn(obj: unknown, ...args: unknown[]): void {
    this.at('warn', obj, args);
  }
  info(obj: unknown, ...args: unknown[]): void {
    this.at('info', obj, args);
  }
  debug(obj: unknown, ...args: unknown[]): void {
    this.at('debug', obj, args);
  }
  trace(obj: unknown, ...args: unknown[]): void {
    this.at('trace', obj, args);
  }
  silent(): void {}
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real.child(bindings, options);
  }
  isLevelEnabled(level: string): boolean {
    return this.options.level === undefined ? this.parent.isLevelEnabled(level) : this.real.isLevelEnabled(level);
  }
}

/**
 * Fastify's childLoggerFactory: request loggers that cost nothing until they log. The parent is
 * the pino logger Fastify made from loggerOptions.
 */
export function lazyChildLogger(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  // Without a logger (logger: false) Fastify's stand-in logs nothing and is its own child.
  const levelled = logger as Partial<LevelledLogger>;
  if (typeof levelled.isLevelEnabled !== 'function') return logger;
  return new LazyChildLogger(logger as LevelledLogger, bindings, options);
}
