import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import Tokens from '@fastify/csrf';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addRouteHook } from '../http/route-hooks.js';
import type { PageAssets } from '../presenters/schedule-page.js';
import type { ActiveSession, Member, MemberSessions } from '../services/sign-in/index.js';

/** The signed session cookie (contract §14). */
export const SESSION_COOKIE = 'sector_session';
/** The signed cookie that binds a sign-in under way to the browser that started it. */
export const LOGIN_COOKIE = 'sector_login';

/**
 * A cookie's name as sent: under https with the `__Host-` prefix, which browsers accept only with
 * Secure, Path=/ and no Domain, so a sibling subdomain cannot set it for this site.
 */
export const cookieName = (base: string, secure: boolean): string => (secure ? `__Host-${base}` : base);

const SESSION_MAX_AGE_S = 30 * 86_400;

/** What page helpers (src/http/member-pages.ts) need, decorated on the application. */
export interface MemberPagesContext {
  siteName: string;
  assets: PageAssets;
  /** Whether members can sign in (CONNECT_CLIENT_ID and CONNECT_CLIENT_SECRET set). */
  signInEnabled: boolean;
  /** Cookies get Secure and the `__Host-` prefix when PUBLIC_URL is https. */
  secureCookies: boolean;
  tokens: Tokens.TokensSimple;
  sessions: MemberSessions;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A page for people (HTML): its requests get request.member from the session cookie. */
    page?: boolean;
  }
  interface FastifyRequest {
    /** The signed-in member making a page request; null when signed out (or not a page route). */
    member: Member | null;
    /** Their session (for CSRF tokens and signing out). */
    memberSession: ActiveSession | null;
  }
  interface FastifyInstance {
    memberPages: MemberPagesContext;
  }
}

export interface MemberSessionOptions {
  sessions: MemberSessions;
  /** SESSION_SECRET, or the generated one kept in the database. */
  secret: string;
  secureCookies: boolean;
  signInEnabled: boolean;
  siteName: string;
  assets: PageAssets;
}

/**
 * Sets a signed cookie (HttpOnly, SameSite=Lax, Path=/; Secure and named with `__Host-` when
 * PUBLIC_URL is https). Written here rather than through @fastify/cookie's hooks, which would run
 * on every request of the API too.
 */
export function setSignedCookie(reply: FastifyReply, base: string, value: string, maxAge: number): void {
  const server = reply.server;
  const secure = server.memberPages.secureCookies;
  const options = { httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge } as const;
  reply.header('set-cookie', server.serializeCookie(cookieName(base, secure), server.signCookie(value), options));
}

export function clearCookie(reply: FastifyReply, base: string): void {
  const secure = reply.server.memberPages.secureCookies;
  const options = { httpOnly: true, sameSite: 'lax', path: '/', secure, expires: new Date(0) } as const;
  reply.header('set-cookie', reply.server.serializeCookie(cookieName(base, secure), '', options));
}

/** Sets the session cookie: on sign-in, and again when a used session is recorded as seen. */
export function setSessionCookie(reply: FastifyReply, sessionId: string): void {
  setSignedCookie(reply, SESSION_COOKIE, sessionId, SESSION_MAX_AGE_S);
}

export function clearSessionCookie(reply: FastifyReply): void {
  clearCookie(reply, SESSION_COOKIE);
}

/** The value of one of the request's signed cookies (by its base name), when its signature holds. */
export function signedCookie(request: FastifyRequest, base: string): string | null {
  const header = request.headers.cookie;
  if (header === undefined) return null;
  const raw = request.server.parseCookie(header)[cookieName(base, request.server.memberPages.secureCookies)];
  if (raw === undefined) return null;
  const unsigned = request.server.unsignCookie(raw);
  return unsigned.valid && unsigned.value !== '' ? unsigned.value : null;
}

/**
 * Members' sessions on page routes (`config: { page: true }`): reads the signed session cookie,
 * finds the session in the database and sets request.member. With sign-in on, pages are answered
 * `Vary: Cookie`, and a member's pages are never stored by any cache. API routes never look at cookies.
 */
async function memberSession(app: FastifyInstance, opts: MemberSessionOptions) {
  // hook: false: cookies are read and written by this plugin's helpers, on page routes only.
  await app.register(cookie, { secret: opts.secret, hook: false });
  app.decorateRequest('member', null);
  app.decorateRequest('memberSession', null);
  app.decorate('memberPages', {
    siteName: opts.siteName,
    assets: opts.assets,
    signInEnabled: opts.signInEnabled,
    secureCookies: opts.secureCookies,
    tokens: Tokens(),
    sessions: opts.sessions,
  });

  const load = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!opts.signInEnabled) return;
    reply.header('vary', 'Cookie');
    const sessionId = signedCookie(request, SESSION_COOKIE);
    if (sessionId === null) return;
    const found = await opts.sessions.lookUp(sessionId);
    if (found === null) return clearSessionCookie(reply);
    request.member = found.session.member;
    request.memberSession = found.session;
    reply.header('cache-control', 'private, no-store');
    if (found.touched) setSessionCookie(reply, sessionId);
  };

  app.addHook('onRoute', (route) => {
    if (route.config?.page === true) addRouteHook(route, 'onRequest', load);
  });
}

export default fp(memberSession, { name: 'sector-member-session' });
