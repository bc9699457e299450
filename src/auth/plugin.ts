import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/errors.js';
import type { ApiKeyService, AuthenticatedKey } from './keys.js';

/**
 * Who may call a route:
 * - public:   anyone; a key is optional (an invalid one is still 401)
 * - optional: anyone; a valid key unlocks more (the full booking form)
 * - read:     any valid key
 * - edit:     a key with edit scope
 */
export type AuthLevel = 'public' | 'optional' | 'read' | 'edit';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthLevel;
  }
  interface FastifyRequest {
    apiKey: AuthenticatedKey | null;
    authRefusal: ApiError | null;
  }
}

const CHALLENGE = 'Bearer realm="sector"';

/** 401 with the Bearer challenge (RFC 6750); `error` names what was wrong with a key that was sent. */
export function unauthorized(message: string, error?: string): ApiError {
  return new ApiError(401, message, {}, {
    'www-authenticate': error ? `${CHALLENGE}, error="${error}"` : CHALLENGE,
  });
}

async function authPlugin(app: FastifyInstance, opts: { keys: ApiKeyService }) {
  app.decorateRequest('apiKey', null);
  app.decorateRequest('authRefusal', null);

  // Runs before rate limiting so the limit can count per key. A refusal is only raised in
  // preParsing, after the rate limiter (an onRequest hook of each route) has counted the
  // request against its IP: a flood of missing or wrong keys is limited like any other.
  // Callback hooks with a synchronous path: most requests carry no key and need no promise.
  app.addHook('onRequest', (request, _reply, done) => {
    const level = request.routeOptions.config.auth;
    if (level === undefined) return done(); // not an API route (docs, health)
    const header = request.headers.authorization;
    if (header === undefined) {
      request.authRefusal = refusalFor(level, null);
      return done();
    }
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) {
      request.authRefusal = unauthorized('Invalid API key', 'invalid_token');
      return done();
    }
    opts.keys.authenticate(m[1]!).then((key) => {
      request.apiKey = key;
      request.authRefusal = key ? refusalFor(level, key) : unauthorized('Invalid API key', 'invalid_token');
      done();
    }, done);
  });
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.authRefusal) done(request.authRefusal);
    else done(null, payload);
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

export default fp(authPlugin, { name: 'sector-auth' });
