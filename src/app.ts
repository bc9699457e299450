import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import cors from '@fastify/cors';
import etag from '@fastify/etag';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import qs from 'qs';
import authPlugin from './auth/plugin.js';
import { ApiError, registerErrorHandling } from './http/errors.js';
import { clientErrorHandler, PROTECTIVE_HEADERS, refuseConnect } from './http/clientErrors.js';
import { redactUrl, scrubCredentials } from './http/redact.js';
import { rejectBadVariant } from './http/variant.js';
import openapi from './http/openapi.js';
import { validatorCompiler } from './http/validation.js';
import { registerRoutes } from './routes/index.js';
import type { AppServices } from './services/index.js';
import { VERSION } from './version.js';

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
}

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

const BODY_LIMIT = 64 * 1024;

// qs drops whatever lies past its limits without a word, so a flood of junk parameters could push
// a real one (limit=1) out of the query and change the answer: a query or form over its limits
// is refused instead (throwOnLimitExceeded).
const QUERY_LIMITS = { parameterLimit: 100, arrayLimit: 50 } as const;
const FORM_LIMITS = { parameterLimit: 50, arrayLimit: 20 } as const;

/** The client's message for a limit qs refused, naming the limit; null for any other error. */
function limitExceeded(err: unknown, part: string, limits: { parameterLimit: number; arrayLimit: number }): string | null {
  if (!(err instanceof RangeError)) return null;
  if (err.message.startsWith('Parameter limit')) return `Too many ${part}s: at most ${limits.parameterLimit} are accepted`;
  if (err.message.startsWith('Array limit')) return `Too many values for one ${part}: at most ${limits.arrayLimit} are accepted`;
  return null;
}

const ARRAY_INDEX = /(\[|%5B)(\d+)(\]|%5D)/gi;

/**
 * The string with every array index at or past the limit (include[50]=a) written as an append
 * (include[]=a). qs refuses such an index as if it were that many values; it is one value, and
 * the limit on how many values a parameter may have still applies to the result.
 */
function withoutLargeIndices(s: string, arrayLimit: number): string {
  return s
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq === -1 ? part : part.slice(0, eq);
      const index = (match: string, open: string, digits: string, close: string) => (Number(digits) >= arrayLimit ? `${open}${close}` : match);
      return name.replace(ARRAY_INDEX, index) + (eq === -1 ? '' : part.slice(eq));
    })
    .join('&');
}

/** qs.parse, once more with large indices as appends if it refused the array limit because of one. */
function parseWithLimits(s: string, options: qs.IParseOptions & { arrayLimit: number; decoder?: never }): qs.ParsedQs {
  try {
    return qs.parse(s, options);
  } catch (err) {
    if (!(err instanceof RangeError && err.message.startsWith('Array limit'))) throw err;
    const appended = withoutLargeIndices(s, options.arrayLimit);
    if (appended === s) throw err;
    return qs.parse(appended, options);
  }
}

/**
 * Marks a query string that could not be parsed. The parser runs inside routing, where a throw
 * would escape Fastify and crash the process; a hook answers the request instead.
 */
const QUERY_REJECTED = Symbol('query rejected');

// Accepts include[]=a, include[0]=a, include=a&include=b and include=a,b.
function parseQuery(s: string): qs.ParsedQs | { [QUERY_REJECTED]: string } {
  try {
    return parseWithLimits(s, { comma: true, depth: 2, ...QUERY_LIMITS, throwOnLimitExceeded: true });
  } catch (err) {
    return { [QUERY_REJECTED]: limitExceeded(err, 'query parameter', QUERY_LIMITS) ?? 'Malformed query string' };
  }
}

/** One hook (on every request) for what makes a request malformed after routing: its query, its Api-Variant. */
function rejectMalformedRequest(request: FastifyRequest, reply: FastifyReply, done: (err?: Error) => void): void {
  const rejected = (request.query as Record<symbol, unknown> | undefined)?.[QUERY_REJECTED];
  if (typeof rejected === 'string') return done(new ApiError(400, rejected));
  rejectBadVariant(request, reply, done);
}

/**
 * Form bodies: a throw here is caught by Fastify's body parsing and answered by the error handler.
 * Fields are kept in an object without a prototype, so that a field named like an Object.prototype
 * member (constructor, toString) is a field like any other, refused as unknown rather than dropped
 * unseen; so is __proto__, which qs drops whatever its options.
 */
function parseForm(s: string): qs.ParsedQs {
  let fields: qs.ParsedQs;
  try {
    fields = parseWithLimits(s, { depth: 1, ...FORM_LIMITS, throwOnLimitExceeded: true, plainObjects: true });
  } catch (err) {
    const message = limitExceeded(err, 'form field', FORM_LIMITS);
    throw message === null ? err : new ApiError(400, message);
  }
  for (const [name, value] of new URLSearchParams(s)) {
    if (name === '__proto__' || name.startsWith('__proto__[')) {
      Object.defineProperty(fields, '__proto__', { value, enumerable: true, writable: true, configurable: true });
    }
  }
  return fields;
}


const RATE_LIMIT_HEADERS = ['limit', 'remaining', 'reset'] as const;

const FRAMEWORK_ERRORS: Record<string, string> = {
  FST_ERR_BAD_URL: 'Malformed URL',
  FST_ERR_MAX_PARAM_LENGTH: 'Path parameter is too long',
};

/** Builds the HTTP application without listening, so tests can inject requests. */
export async function buildApp(services: AppServices, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { config } = services;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    bodyLimit: BODY_LIMIT,
    trustProxy: config.trustProxy,
    // A slow client cannot hold a connection open forever: the whole request, and its headers
    // alone, must arrive within the timeout. Node checks these only every connectionsCheckingInterval
    // (30 s by default), so it is checked often enough for the timeout to mean what it says.
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: 60_000,
    http: {
      requestTimeout: config.requestTimeoutMs,
      headersTimeout: config.requestTimeoutMs,
      connectionsCheckingInterval: Math.min(1000, config.requestTimeoutMs),
      // Node answers a missing Host with a bare 400 of its own; the application answers it instead.
      requireHostHeader: false,
    },
    // Requests the HTTP parser refuses, or that do not arrive in time, answered like every other.
    clientErrorHandler,
    // A request arriving during shutdown is answered by the application's own hook (below).
    return503OnClosing: false,
    // Errors Fastify raises before routing (an undecodable URL, an over-long path parameter)
    // skip the hooks and the error handler: answer them in the same shape, with the same headers.
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) =>
      void reply
        .code(error.statusCode ?? 400)
        .headers({ ...PROTECTIVE_HEADERS, 'cache-control': 'no-store' })
        .send({ message: FRAMEWORK_ERRORS[error.code] ?? 'Malformed request' }),
    routerOptions: {
      maxParamLength: 200,
      querystringParser: parseQuery,
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  refuseConnect(app);
  app.setValidatorCompiler(validatorCompiler);
  // Bodies are JSON or form-encoded (registered below); anything else is 415.
  app.removeContentTypeParser('text/plain');
  // Many HTTP clients label every request JSON, a bodiless DELETE included: an empty JSON body
  // is no body, not a malformed one.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    body === '' ? done(null, undefined) : parseJson(request, body as string, done),
  );
  registerErrorHandling(app);

  // First of all hooks: during shutdown every request is 503 (with Retry-After, as every 503 is)
  // without running anything else; an HTTP/1.1 request without Host is malformed (RFC 9112 §3.2).
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      return void reply
        .code(503)
        .headers({ 'retry-after': '1', 'cache-control': 'no-store', connection: 'close' })
        .send({ message: 'The server is shutting down; try again shortly' });
    }
    if (request.headers.host === undefined && request.raw.httpVersion === '1.1') {
      return done(new ApiError(400, 'Malformed request: an HTTP/1.1 request needs a Host header', {}, { 'cache-control': 'no-store' }));
    }
    done();
  });

  // Route-level defaults derived from who may call a route: CORS only on public GETs, and
  // rate limiting only on API routes. Must run before the plugins read the same config.
  app.addHook('onRoute', (route) => {
    const auth = route.config?.auth;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const publicGet = (auth === 'public' || auth === 'optional') && methods.every((m) => m === 'GET' || m === 'HEAD');
    // The CORS plugin's own preflight route (OPTIONS *) must keep answering, so browsers may send a key to public GETs.
    const preflight = methods.includes('OPTIONS') && (route.url === '*' || route.url === '/*');
    const cors = publicGet || preflight ? {} : { cors: false };
    route.config = { ...route.config, ...cors, ...(auth ? {} : { rateLimit: false }) } as typeof route.config;
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(PROTECTIVE_HEADERS);
    // Clients written against Control Center read the X-RateLimit-* names.
    if (config.rateLimit > 0) for (const name of RATE_LIMIT_HEADERS) {
      const value = reply.getHeader(`ratelimit-${name}`);
      if (value !== undefined) reply.header(`x-ratelimit-${name}`, value);
    }
    if (request.apiKey) reply.header('cache-control', 'no-store');
    else if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-cache');
    done(null, payload);
  });

  // The limiter counts in each API route's own onRequest hook, after the authentication hook
  // (an application hook) has found the request's key; registered first so that authentication
  // can ask it whether an IP has used its limit.
  let ipLimited: ((request: FastifyRequest) => Promise<boolean>) | undefined;
  if (config.rateLimit > 0) {
    await app.register(rateLimit, {
      max: config.rateLimit,
      timeWindow: 60_000,
      // The draft standard's RateLimit-Limit/-Remaining/-Reset; the X-RateLimit-* names are copied below.
      enableDraftSpec: true,
      keyGenerator: (request) => (request.apiKey ? `key:${request.apiKey.id}` : `ip:${request.ip}`),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        message: `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`,
      }),
    });
    // The same counters, read without counting; asked before a key is known, so it reads the IP's.
    const peek = app.createRateLimit();
    ipLimited = async (request) => {
      const state = await peek(request, { increment: false });
      return !state.isAllowed && state.remaining <= 0;
    };
  }
  await app.register(authPlugin, { keys: services.keys, ...(ipLimited ? { ipLimited } : {}) });
  app.addHook('preValidation', rejectMalformedRequest);
  // Not strict: an OPTIONS request without CORS headers is answered like any other, never with a text error.
  await app.register(cors, { origin: '*', methods: ['GET', 'HEAD'], exposedHeaders: ['ETag', 'Link', 'Deprecation'], strictPreflight: false });
  await app.register(etag);
  await app.register(formbody, { bodyLimit: BODY_LIMIT, parser: parseForm });
  await app.register(openapi, { version: VERSION });
  await registerRoutes(app, services);
  return app;
}
