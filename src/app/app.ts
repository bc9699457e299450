import Fastify, {
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import bodyParsers from '../core/web/plugins/body-parsers.js';
import corsPolicy from '../core/web/plugins/cors.js';
import notFound from '../core/web/plugins/not-found.js';
import requestMetrics from '../core/web/plugins/request-metrics.js';
import responseHeaders from '../core/web/plugins/response-headers.js';
import shutdown from '../core/web/plugins/shutdown.js';
import { registerErrorHandling } from '../core/web/errors.js';
import { clientErrorHandler, PROTECTIVE_HEADERS, refuseConnect } from '../core/web/client-errors.js';
import { loggerOptions } from '../core/web/logging.js';
import { parseQuery } from '../core/web/parameters.js';
import openapi, { serverUrl } from '../core/web/openapi.js';
import { validatorCompiler } from '../core/web/validation.js';
import { BOOKING_FORMATS } from '../features/bookings/index.js';
import { registerRoutes, type ScopeRoutes } from './routes.js';
import { demoGuard } from '../features/sign-in/index.js';
import type { AppServices } from './services.js';
import { VERSION } from '../version.js';

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
  /** Routes added to the scopes beside the application's own: tests prove with them that each scope guards what it holds. */
  routes?: ScopeRoutes;
}

const BODY_LIMIT = 64 * 1024;

const FRAMEWORK_ERRORS: Record<string, string> = {
  FST_ERR_BAD_URL: 'Malformed URL',
  FST_ERR_MAX_PARAM_LENGTH: 'Path parameter is too long',
};

/** Builds the HTTP application without listening (tests inject requests); routes in their scopes in src/app/routes.ts. */
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
      // Node responds to a missing Host with a bare 400 of its own; the application responds instead.
      requireHostHeader: false,
    },
    // Requests the HTTP parser refuses, or that do not arrive in time, get a response like every other.
    clientErrorHandler,
    // A request arriving during shutdown gets its response from the application's own hook (core/web/plugins/shutdown.ts).
    return503OnClosing: false,
    // Errors Fastify raises before routing (an undecodable URL, an over-long path parameter)
    // skip the hooks and the error handler: respond to them in the same shape, with the same headers.
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
  // npm run demo: answers only on this computer, before any other hook (src/app/demo-mode.ts).
  if (config.demo) demoGuard(app);
  app.setValidatorCompiler(validatorCompiler(BOOKING_FORMATS));
  // Bodies are written in the order their presenters build them (the seed's documented field order),
  // which a schema-compiled serializer would not keep; presenters are typed by the response schemas,
  // which document the shapes in OpenAPI.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  await app.register(bodyParsers, { bodyLimit: BODY_LIMIT });
  registerErrorHandling(app);
  if (services.metrics) await app.register(requestMetrics, { metrics: services.metrics });
  await app.register(shutdown, { requestTimeoutMs: config.requestTimeoutMs });
  // After shutdown's hook: during shutdown every request, routed or not, gets its 503.
  await app.register(notFound);
  const metrics = services.metrics;
  await app.register(responseHeaders, {
    rateLimited: config.rateLimit > 0,
    ...(metrics ? { onConditional: (notModified: boolean) => metrics.observeConditional(notModified) } : {}),
  });
  // CORS for every scope: public GETs and browsers' preflights, nothing else.
  await app.register(corsPolicy);
  await app.register(openapi, { version: VERSION, serverUrl: serverUrl(config.host, config.port) });
  await registerRoutes(app, services, await services.sessions.cookieSecret(config.sessionSecret), options.routes);
  return app;
}
