// The page scope's hooks (src/app/scopes/pages.ts): members' sessions from a signed cookie
// (@fastify/cookie), CSRF tokens of the session (@fastify/csrf), and one error handler that
// responds with an HTML page.
import cookie from '@fastify/cookie';
import Tokens from '@fastify/csrf';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { databaseTrouble } from '../../core/db/errors.js';
import { DomainError, ValidationError } from '../../core/domain/errors.js';
import { responseForDomainError } from '../../core/web/error-responses.js';
import { ApiError } from '../../core/web/errors.js';
import { checkRequest } from '../../core/web/parameters.js';
import { sendMessage } from '../../core/web/pages.js';
import type { PageAssets } from '../../core/web/page-assets.js';
import type { ActiveSession, Member, SessionsService } from './sign-in.service.js';

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

/** What page helpers (src/core/web/pages.ts) need, decorated on the page scope. */
export interface MemberPagesContext {
  siteName: string;
  assets: PageAssets;
  /** Whether members can sign in (CONNECT_CLIENT_ID and CONNECT_CLIENT_SECRET set). */
  signInEnabled: boolean;
  /** Cookies get Secure and the `__Host-` prefix when PUBLIC_URL is https. */
  secureCookies: boolean;
  tokens: Tokens.TokensSimple;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in member making a page request; null when signed out. */
    member: Member | null;
    /** Their session (for CSRF tokens and signing out). */
    memberSession: ActiveSession | null;
  }
  interface FastifyInstance {
    memberPages: MemberPagesContext;
  }
}

export interface MemberSessionOptions {
  sessions: SessionsService;
  /** SESSION_SECRET, or the generated one kept in the database. */
  secret: string;
  secureCookies: boolean;
  signInEnabled: boolean;
  siteName: string;
  assets: PageAssets;
}

/** Sets a signed cookie (HttpOnly, SameSite=Lax, Path=/; Secure and named with `__Host-` under https). */
export function setSignedCookie(reply: FastifyReply, base: string, value: string, maxAge: number): void {
  const secure = reply.server.memberPages.secureCookies;
  reply.setCookie(cookieName(base, secure), value, { signed: true, httpOnly: true, sameSite: 'lax', path: '/', secure, maxAge });
}

export function clearCookie(reply: FastifyReply, base: string): void {
  const secure = reply.server.memberPages.secureCookies;
  reply.clearCookie(cookieName(base, secure), { httpOnly: true, sameSite: 'lax', path: '/', secure });
}

/** Sets the session cookie: on sign-in, and again when a used session is recorded as seen. */
export const setSessionCookie = (reply: FastifyReply, sessionId: string): void =>
  setSignedCookie(reply, SESSION_COOKIE, sessionId, SESSION_MAX_AGE_S);

export const clearSessionCookie = (reply: FastifyReply): void => clearCookie(reply, SESSION_COOKIE);

/** The value of one of the request's signed cookies (by its base name), when its signature holds. */
export function signedCookie(request: FastifyRequest, base: string): string | null {
  const raw = request.cookies[cookieName(base, request.server.memberPages.secureCookies)];
  if (raw === undefined) return null;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value !== '' ? unsigned.value : null;
}

/**
 * Sets request.member from the signed session cookie; it identifies, it does not guard (the page scopes'
 * hooks do: src/app/scopes/pages.ts). With sign-in on, pages vary by Cookie and are never stored by a cache.
 */
async function memberSession(scope: FastifyInstance, opts: MemberSessionOptions): Promise<void> {
  await scope.register(cookie, { secret: opts.secret });
  scope.decorateRequest('member', null);
  scope.decorateRequest('memberSession', null);
  scope.decorate('memberPages', {
    siteName: opts.siteName,
    assets: opts.assets,
    signInEnabled: opts.signInEnabled,
    secureCookies: opts.secureCookies,
    tokens: Tokens(),
  });

  scope.addHook('onRequest', async (request, reply) => {
    // Pages read their own query (the schedule shows its form again); an unreadable one is refused.
    checkRequest(request, { variant: false });
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
  });

  scope.setErrorHandler(pageError);
}

/** Every error on a page is a page: what went wrong in words, with where to go next; never a stack trace. */
function pageError(error: FastifyError | ApiError | DomainError, request: FastifyRequest, reply: FastifyReply) {
  let status: number;
  let message: string;
  const trouble = databaseTrouble(error);
  if (error instanceof DomainError) {
    status = responseForDomainError(error).status;
    message = error instanceof ValidationError ? 'Something in the request was not valid; nothing was changed.' : error.message;
  } else if (error instanceof ApiError) {
    status = error.statusCode;
    message = error.message;
  } else if (error.validation) {
    status = 422;
    message = 'Something in the request was not valid; nothing was changed.';
  } else if (trouble === 'badText') {
    // PostgreSQL refuses text holding NUL, which no form can send: the request is at fault, as on the API.
    status = 400;
    message = 'Text in the request must not contain NUL characters; nothing was changed.';
  } else if (trouble !== null) {
    request.log.warn({ err: error }, `database ${trouble}`);
    reply.header('retry-after', '1');
    status = 503;
    message = 'The site is busy; nothing was changed. Try again in a moment.';
  } else if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    status = error.statusCode;
    message = 'The request could not be read; nothing was changed.';
  } else {
    request.log.error({ err: error }, 'unhandled error');
    status = 500;
    message = 'Something went wrong on our side; nothing was changed.';
  }
  if (status >= 500 && status !== 503) status = 500;
  return sendMessage(request, reply, status, { title: status >= 500 ? 'Something went wrong' : 'Not done', message });
}

export default fp(memberSession, { name: 'sector-member-session' });
