// Signing a member in for a test without the network's sign-in flow: a session made by the
// application's own session layer (as /auth/callback makes one), and its signed cookie.
import { sign as signCookie } from '@fastify/cookie';
import cookieSignature from '@fastify/cookie';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/core/db/connection.js';
import type { NetworkProfile } from '../../src/features/sign-in/domain.js';
import { ratingValue } from '../../src/features/members/domain/ratings.js';
import { type AppServices, createServices } from '../../src/app/services.js';
import { type UserRecord } from './factories.js';

/** What a test's application must be started with for members to sign in (no request reaches the network). */
export const SIGN_IN_ENV = {
  CONNECT_CLIENT_ID: 'test-client',
  CONNECT_CLIENT_SECRET: 'test-client-secret',
  SESSION_SECRET: 'a-test-session-secret-of-at-least-32-characters',
} as const;

export interface SignedIn {
  cid: number;
  /** The Cookie header of the member's browser. */
  cookie: string;
}

/**
 * Signs the user in (they are created or updated from the record, as a sign-in does) and returns
 * their browser's cookie.
 */
const profileOf = (user: UserRecord): NetworkProfile => ({
  cid: user.id,
  firstName: user.first_name,
  lastName: user.last_name,
  email: user.email ?? null,
  rating: ratingValue(user.rating) ?? 1,
  region: user.region ?? null,
  division: user.division ?? null,
  subdivision: user.subdivision ?? null,
});

export async function signIn(_app: FastifyInstance, services: AppServices, user: UserRecord): Promise<SignedIn> {
  const sessionId = await services.sessions.signIn(profileOf(user));
  const secret = await services.sessions.cookieSecret(services.config.sessionSecret);
  return { cid: user.id, cookie: `sector_session=${signCookie(sessionId, secret)}` };
}

/** The CSRF token of the first form of a page. */
export function csrfOf(page: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(page);
  if (!m) throw new Error('no CSRF token on the page');
  return m[1]!;
}

/** A form post (application/x-www-form-urlencoded) as a browser sends it. */
export function postForm(
  app: FastifyInstance,
  url: string,
  fields: Record<string, string>,
  cookie: string | null,
  extra: Partial<InjectOptions> = {},
): Promise<LightMyRequestResponse> {
  return app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) },
    payload: new URLSearchParams(fields).toString(),
    ...extra,
  });
}

/**
 * For a server process: signs the user in on its database (as its /auth/callback would) and
 * returns the session cookie's value, signed with the SESSION_SECRET the server was given.
 */
export async function signInOnDatabase(databaseUrl: string, user: UserRecord): Promise<string> {
  return (await signInAllOnDatabase(databaseUrl, [user]))[0]!;
}

/** Session cookies of several members, in their order, signed in on one opening of the database. */
export async function signInAllOnDatabase(databaseUrl: string, users: readonly UserRecord[]): Promise<string[]> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...SIGN_IN_ENV });
  const db = openDatabase(databaseUrl);
  try {
    const services = createServices(config, db);
    const cookies: string[] = [];
    for (const user of users)
      cookies.push(cookieSignature.sign(await services.sessions.signIn(profileOf(user)), SIGN_IN_ENV.SESSION_SECRET));
    return cookies;
  } finally {
    await db.close();
  }
}
