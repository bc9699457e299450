import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../http/errors.js';
import { addRouteHook } from '../http/route-hooks.js';
import type { ApiKeyService, AuthenticatedKey } from '../services/api-keys.js';
import type { AuthLevel } from '../http/auth-levels.js';

export type { AuthLevel } from '../http/auth-levels.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthLevel;
  }
  interface FastifyRequest {
    apiKey: AuthenticatedKey | null;
    authRefusal: ApiError | null;
    /** A token not yet looked up, because its IP had used its rate limit (see authenticate below). */
    pendingToken: string | null;
  }
}

export interface AuthOptions {
  keys: ApiKeyService;
  /**
   * Whether the request's IP has used up its rate limit, without counting the request; absent
   * when there is no limit.
   */
  ipLimited?: (request: FastifyRequest) => Promise<boolean>;
}

const CHALLENGE = 'Bearer realm="sector"';

/** 401 with the Bearer challenge (RFC 6750); `error` names what was wrong with a key that was sent. */
export function unauthorized(message: string, error?: string): ApiError {
  return new ApiError(
    401,
    message,
    {},
    {
      'www-authenticate': error ? `${CHALLENGE}, error="${error}"` : CHALLENGE,
    },
  );
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
    const name = rawHeaders[i]!;
    if (name.length === 13 && name.toLowerCase() === 'authorization' && ++seen > 1) return true;
  }
  return false;
}

type Hook = (request: FastifyRequest) => Promise<void>;

/**
 * API keys (Authorization: Bearer): finds the request's key and refuses what its route's
 * `config.auth` level does not allow, with the RFC 6750 challenge. Each API route gets the check
 * for its own level as the first of its own hooks (worked out once, when the route is added);
 * routes without a level (docs, health) get none. With a rate limit, the limiter's per-route hook
 * must come after this one, so that it counts keyed requests per key: the limiter is a dependency.
 */
async function authPlugin(app: FastifyInstance, opts: AuthOptions) {
  const { keys, ipLimited } = opts;
  app.decorateRequest('apiKey', null);
  app.decorateRequest('authRefusal', null);
  app.decorateRequest('pendingToken', null);

  const settle = (request: FastifyRequest, level: AuthLevel, key: AuthenticatedKey | null) => {
    request.apiKey = key;
    request.authRefusal = key ? refusalFor(level, key) : invalidKey();
  };

  /**
   * Finds the key. Without a rate limit a refusal is raised at once. With one, the limiter (the
   * route's next hook) counts the request first, keyed by the key found here, and the refusal is
   * raised after it (refuseAfterLimit): a flood of missing or wrong keys is limited like any
   * other. A token that cannot be right is refused from memory (ApiKeyService.precheck). One this
   * process has never looked up is looked up only while its IP is within its limit: otherwise it
   * waits until the limiter has counted it, which refuses it, so that a flood of made-up tokens
   * from a limited IP never reaches the database.
   */
  const authenticate =
    (level: AuthLevel): Hook =>
    async (request) => {
      request.authRefusal = await refusalOf(request, level);
      if (request.authRefusal !== null && ipLimited === undefined) throw request.authRefusal;
    };

  /** The refusal of the request's key at this level, or null (also while a lookup waits for the limiter). */
  const refusalOf = async (request: FastifyRequest, level: AuthLevel): Promise<ApiError | null> => {
    const header = request.headers.authorization;
    if (header === undefined) return refusalFor(level, null);
    if (repeatsAuthorization(request.raw.rawHeaders)) return repeatedCredentials();
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const check = m ? keys.precheck(m[1]!) : 'refused';
    if (check === 'refused') return invalidKey();
    const token = m![1]!;
    if (check === 'unseen' && ipLimited !== undefined && (await ipLimited(request))) {
      request.pendingToken = token;
      return null;
    }
    settle(request, level, await keys.authenticate(token));
    return request.authRefusal;
  };

  /** With a rate limit: after the limiter has counted the request, its refusal (or a deferred lookup). */
  const refuseAfterLimit =
    (level: AuthLevel): Hook =>
    async (request) => {
      const token = request.pendingToken;
      if (token !== null) {
        // The limiter let it through after all (its window ended meanwhile): look it up now.
        request.pendingToken = null;
        settle(request, level, await keys.authenticate(token));
      }
      if (request.authRefusal) throw request.authRefusal;
    };

  app.addHook('onRoute', (route) => {
    const level = route.config?.auth;
    if (level === undefined) return;
    addRouteHook(route, 'onRequest', authenticate(level), 'first');
    if (ipLimited !== undefined) {
      const afterLimit = refuseAfterLimit(level);
      addRouteHook(
        route,
        'preParsing',
        async (request: FastifyRequest, _reply: unknown, payload: unknown) => {
          await afterLimit(request);
          return payload;
        },
        'first',
      );
    }
  });
}

function refusalFor(level: AuthLevel, key: AuthenticatedKey | null): ApiError | null {
  if (level === 'read' || level === 'edit') {
    if (!key) return unauthorized('An API key is required: send Authorization: Bearer <API_KEY>');
    if (level === 'edit' && key.scope !== 'edit') {
      return new ApiError(403, 'This API key is read-only; this operation needs a key with edit rights');
    }
  }
  return null;
}

export default fp(authPlugin, { name: 'sector-auth', dependencies: ['sector-route-defaults', 'sector-rate-limit'] });
