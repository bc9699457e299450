// The API scope's guard: bearer keys (and query parameters only a key may use), rate limit, query
// and Api-Variant checks (CORS: src/core/web/plugins/cors.ts).
// The limiter runs after authentication and before a refused key gets its response, so floods of bad keys
// are limited too, and 401/403 come before 400/422.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuthLevel } from '../../core/web/auth-levels.js';
import { ApiError } from '../../core/web/errors.js';
import { checkRequest } from '../../core/web/parameters.js';
import type { ApiKeyService, AuthenticatedKey } from './api-keys.service.js';
import type { AuditActor } from '../audit/domain/index.js';

export type { AuthLevel } from '../../core/web/auth-levels.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call an API route; a route that says nothing needs a key ('read'). */
    auth?: AuthLevel;
    /** Query parameters only a key may use, on a route open without one (401 with one of them and no key). */
    keyedParameters?: string[];
  }
  interface FastifyRequest {
    apiKey: AuthenticatedKey | null;
    /** What authentication decided, until the limiter has counted the request. */
    apiKeyCheck: ApiKeyCheck | null;
  }
}

export interface ApiKeysOptions {
  keys: ApiKeyService;
  /** Requests per minute per key, or per IP without one; 0 turns limiting off. */
  rateLimit: number;
}

const CHALLENGE = 'Bearer realm="sector"';

/** The actor of a write route: they need an edit key (auth: 'edit'), so one is always there. */
export const keyActor = (request: FastifyRequest): AuditActor => ({
  kind: 'key',
  keyId: request.apiKey!.id,
  keyName: request.apiKey!.name,
});

/** 401 with the Bearer challenge (RFC 6750); `error` names what was wrong with a key that was sent. */
export function unauthorized(message: string, error?: string): ApiError {
  return new ApiError(401, message, {}, { 'www-authenticate': error ? `${CHALLENGE}, error="${error}"` : CHALLENGE });
}

const invalidKey = () => unauthorized('Invalid API key', 'invalid_token');

// RFC 6750 §3.1: a request that repeats its credentials is an invalid request (400).
const repeatedCredentials = () =>
  new ApiError(400, 'Send one Authorization header, not several', {}, { 'www-authenticate': `${CHALLENGE}, error="invalid_request"` });

/**
 * True when the request carries more than one Authorization header. Node keeps only the first in
 * request.headers, so a valid key followed by garbage (or by another key) would pass as the first.
 */
function repeatsAuthorization(rawHeaders: string[]): boolean {
  let seen = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'authorization' && ++seen > 1) return true;
  }
  return false;
}

function refusalFor(level: AuthLevel, key: AuthenticatedKey | null): ApiError | null {
  if (level !== 'read' && level !== 'edit') return null;
  if (!key) return unauthorized('An API key is required: send Authorization: Bearer <API_KEY>');
  if (level === 'edit' && key.scope !== 'edit')
    return new ApiError(403, 'This API key is read-only; this operation needs a key with edit rights');
  return null;
}

/** What authentication decided, until the limiter has counted the request. */
export interface ApiKeyCheck {
  refusal: ApiError | null;
  /** A token not looked up yet because its IP had used its limit: looked up if the limiter lets it through. */
  token: string | null;
}

/** The API scope's guard; not encapsulated, so its hooks and the limiter apply to the scope that registers it. */
async function apiKeys(scope: FastifyInstance, { keys, rateLimit: max }: ApiKeysOptions): Promise<void> {
  scope.decorateRequest('apiKey', null);
  scope.decorateRequest('apiKeyCheck', null);
  // A route that forgets its level is not open to anyone: it needs a key.
  const levelOf = (request: FastifyRequest): AuthLevel => request.routeOptions.config.auth ?? 'read';

  // Whether the request's IP has used up its limit, without counting the request.
  let ipLimited: ((request: FastifyRequest) => Promise<boolean>) | null = null;
  if (max > 0) {
    await scope.register(rateLimit, {
      max,
      timeWindow: 60_000,
      // The draft standard's RateLimit-Limit/-Remaining/-Reset; the X-RateLimit-* names are copied in src/core/web/plugins/response-headers.ts.
      enableDraftSpec: true,
      keyGenerator: (request) => (request.apiKey ? `key:${request.apiKey.id}` : `ip:${request.ip}`),
      errorResponseBuilder: (_request, context) => ({
        statusCode: 429,
        message: `Rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`,
      }),
    });
    const peek = scope.createRateLimit();
    ipLimited = async (request) => {
      const state = await peek(request, { increment: false });
      return !state.isAllowed && state.remaining <= 0;
    };
  }

  /**
   * Finds the request's key. A token that cannot be right is refused from memory; an unseen one is
   * looked up only while its IP is within its limit, so made-up tokens never flood the database.
   */
  scope.addHook('onRequest', async (request) => {
    const level = levelOf(request);
    const state: ApiKeyCheck = { refusal: null, token: null };
    request.apiKeyCheck = state;
    const header = request.headers.authorization;
    if (header === undefined) {
      state.refusal = refusalFor(level, null);
      return;
    }
    if (repeatsAuthorization(request.raw.rawHeaders)) {
      state.refusal = repeatedCredentials();
      return;
    }
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const check = m ? keys.precheck(m[1]!) : 'refused';
    if (check === 'refused') {
      state.refusal = invalidKey();
      return;
    }
    if (check === 'unseen' && ipLimited !== null && (await ipLimited(request))) {
      state.token = m![1]!;
      return;
    }
    request.apiKey = await keys.authenticate(m![1]!);
    state.refusal = request.apiKey ? refusalFor(level, request.apiKey) : invalidKey();
  });

  // After the limiter: the refusal, then what makes the request malformed (its query, Api-Variant).
  scope.addHook('preParsing', async (request, _reply, payload) => {
    const state = request.apiKeyCheck;
    if (state?.token) {
      request.apiKey = await keys.authenticate(state.token);
      state.refusal = request.apiKey ? refusalFor(levelOf(request), request.apiKey) : invalidKey();
    }
    if (state?.refusal) throw state.refusal;
    checkRequest(request, { variant: true, parameters: queryParameters(request) });
    if (request.apiKey === null) {
      const keyed = request.routeOptions.config.keyedParameters?.find((name) => Object.hasOwn(request.query as object, name));
      if (keyed !== undefined) throw unauthorized(`The ${keyed} filter needs an API key: send Authorization: Bearer <API_KEY>`);
    }
    return payload;
  });
}

/** The names of the route's query parameters, as its querystring schema lists them. */
function queryParameters(request: FastifyRequest): string[] {
  const query = (request.routeOptions.schema as { querystring?: { properties?: Record<string, unknown> } } | undefined)?.querystring;
  return Object.keys(query?.properties ?? {});
}

export default fp(apiKeys, { name: 'sector-api-keys' });
