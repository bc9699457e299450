import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import cors from '@fastify/cors';
import etag from '@fastify/etag';
import formbody from '@fastify/formbody';
import rateLimit from '@fastify/rate-limit';
import authPlugin from './auth/plugin.js';
import { ApiError, registerErrorHandling } from './http/errors.js';
import { clientErrorHandler, PROTECTIVE_HEADERS, refuseConnect } from './http/clientErrors.js';
import { loggerOptions } from './http/logging.js';
import { parseForm, parseQuery, rejectMalformedRequest } from './http/parameters.js';
import openapi from './http/openapi.js';
import { validatorCompiler } from './http/validation.js';
import { registerRoutes } from './routes/index.js';
import type { AppServices } from './services/index.js';
import { VERSION } from './version.js';

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
}

const BODY_LIMIT = 64 * 1024;

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
    route.config = { ...route.config, ...cors, ...(auth ? {} : { rateLimit: false }) };
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    reply.headers(PROTECTIVE_HEADERS);
    // Clients written against Control Center read the X-RateLimit-* names.
    if (config.rateLimit > 0)
      for (const name of RATE_LIMIT_HEADERS) {
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
  await app.register(cors, {
    origin: '*',
    methods: ['GET', 'HEAD'],
    exposedHeaders: ['ETag', 'Link', 'Deprecation'],
    strictPreflight: false,
  });
  await app.register(etag);
  await app.register(formbody, { bodyLimit: BODY_LIMIT, parser: parseForm });
  await app.register(openapi, { version: VERSION });
  await registerRoutes(app, services);
  return app;
}
