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
const SESSION_MAX_AGE_S = 30 * 86_400;

/** What page helpers (src/http/member-pages.ts) need, decorated on the application. */
export interface MemberPagesContext {
  siteName: string;
  assets: PageAssets;
  /** Whether members can sign in (CONNECT_CLIENT_ID and CONNECT_CLIENT_SECRET set). */
  signInEnabled: boolean;
  /** Cookies get Secure when PUBLIC_URL is https. */
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

/** Sets the session cookie: on sign-in, and again when a used session is recorded as seen. */
export function setSessionCookie(reply: FastifyReply, sessionId: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, sessionId, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure,
    path: '/',
    maxAge: SESSION_MAX_AGE_S,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', secure, path: '/' });
}

/** The id in the request's session cookie, when its signature holds. */
export function sessionIdOf(request: FastifyRequest, name = SESSION_COOKIE): string | null {
  const raw = request.cookies[name];
  if (raw === undefined) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value !== '' ? unsigned.value : null;
}

/**
 * Members' sessions on page routes (`config: { page: true }`): reads the signed session cookie,
 * finds the session in the database and sets request.member. Pages are answered `Vary: Cookie`,
 * and a member's pages are never stored by any cache. API routes never look at cookies.
 */
async function memberSession(app: FastifyInstance, opts: MemberSessionOptions) {
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
    reply.header('vary', 'Cookie');
    if (!opts.signInEnabled) return;
    request.cookies = app.parseCookie(request.headers.cookie ?? '');
    const sessionId = sessionIdOf(request);
    if (sessionId === null) return;
    const found = await opts.sessions.lookUp(sessionId);
    if (found === null) return clearSessionCookie(reply, opts.secureCookies);
    request.member = found.session.member;
    request.memberSession = found.session;
    reply.header('cache-control', 'private, no-store');
    if (found.touched) setSessionCookie(reply, sessionId, opts.secureCookies);
  };

  app.addHook('onRoute', (route) => {
    if (route.config?.page === true) addRouteHook(route, 'onRequest', load);
  });
}

export default fp(memberSession, { name: 'sector-member-session' });
