// Everything a page route for signed-in members needs, in one place.
//
// How to use it (a route registered in the members' scope, src/app/scopes/members.ts):
//
//   app.get('/my/bookings', { schema: myBookingsPage }, async (request, reply) => {
//     const member = request.member!;               // { cid, name, firstName, lastName, rating }
//     const body = myBookingsPage({ …, csrf: csrfField(request) });   // put csrfField in every <form method="post">
//     return sendPage(reply, 200, body);
//   });
//   app.post('/bookings', { schema: bookingForm, attachValidation: true }, async (request, reply) => {
//     // Only reached by a signed-in member whose form carried a valid token; its fields are then checked
//     // (src/core/web/forms.ts: formFailure, the form again with its errors), then 303 (post/redirect/get).
//     return reply.redirect('/my/bookings?done=booked', 303);
//   });
//
// - The page scope gives every route request.member (null when signed out or when sign-in is off)
//   and, with sign-in on, `Vary: Cookie`; a member's pages get `Cache-Control: private, no-store`.
//   Its error handler responds to any error with an HTML page.
// - The guards are hooks of the scopes (src/app/scopes/pages.ts), never of a route: memberGuard in the
//   members' scope, the staff scope's own (src/features/roles/staff-scope.ts), publicPageGuard in the public one.
// - Signed out: 303 to /auth/login?next=<this page>, and back here after signing in.
// - A form (any method but GET and HEAD) without the session's token (field `_csrf`, or header
//   X-CSRF-Token; an upload's multipart form in its URL, ?_csrf=) → 403 page, before the handler
//   runs (an upload's body before it is read), so nothing is written.
// - The guards run as preValidation: sign-in and the token are checked before the fields are (a
//   signed-out or forged post is never told what is wrong with its fields).
// - accountView(request) feeds core/web/page-frame.ts accountBar (Sign in / name, Sign out, links).
// - sendPage sets the pages' Content-Security-Policy; sendMessage responds with a short HTML page.
// - Audit and booking writes made for a member use memberActor(member): actor `member:<cid>`.
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import type { AuditActor } from '../domain/audit.js';
import { type AccountView, CSRF_FIELD, csrfInput, messagePage } from './page-frame.js';
import type { Html } from './html.js';

/** The signed-in member a page request is made by (request.member). */
export interface Member {
  /** The network's user ID (CID). */
  cid: number;
  /** "First Last", as the network gave it. */
  name: string;
  firstName: string;
  lastName: string;
  /** Numeric rating value (features/members/domain/ratings.ts), as of the last sign-in or roster update. */
  rating: number;
  /** Holds a staff role in some area or division-wide (features/roles/domain.ts holdsAnyRole): the pages show "Staff". */
  staff: boolean;
  /** The look they chose on /my/settings (contract §24): the device's, light or dark. */
  look: 'device' | 'light' | 'dark';
}

export { CSRF_FIELD } from './page-frame.js';

/** The pages load their stylesheet and script from this origin only; forms post only to it. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** Whether members can sign in at all (CONNECT_CLIENT_ID and CONNECT_CLIENT_SECRET are set). */
export const signInEnabled = (request: FastifyRequest): boolean => request.server.memberPages.signInEnabled;

/** /auth/login, coming back to `next` (a path of this site) afterwards. */
export const signInPath = (next: string): string => `/auth/login?next=${encodeURIComponent(next)}`;

/** A fresh CSRF token of the request's session, for one form. Only for signed-in members. */
export function csrfToken(request: FastifyRequest): string {
  const session = request.memberSession;
  if (session === null) throw new Error("csrfToken needs a signed-in member (a route of the members' or staff scope)");
  return request.server.memberPages.tokens.create(session.csrfSecret);
}

/** The hidden input carrying a CSRF token, to put in a form. */
export const csrfField = (request: FastifyRequest): Html => csrfInput(csrfToken(request));

/** The audit and booking-change actor for what a member does on the pages. */
export const memberActor = (member: Member): Extract<AuditActor, { kind: 'member' }> => ({
  kind: 'member',
  cid: member.cid,
  name: member.name,
});

/** What the account bar shows for this request (null: sign-in is off). */
export function accountView(request: FastifyRequest): AccountView {
  if (!signInEnabled(request)) return null;
  if (request.member === null) return { member: null, signInHref: signInPath(request.url) };
  return { member: { name: request.member.name, cid: request.member.cid, staff: request.member.staff }, csrfToken: csrfToken(request) };
}

const HTML_TAG = Buffer.from('<html lang="en">');

/**
 * The member's look (contract §24) on the page's root element, so the stylesheet needs no script:
 * every page is sent here, so every page honours it.
 */
export function withLook(request: FastifyRequest, body: Buffer): Buffer {
  const look = request.member?.look;
  if (look !== 'light' && look !== 'dark') return body;
  const at = body.indexOf(HTML_TAG);
  if (at < 0) return body;
  const end = at + HTML_TAG.length - 1;
  return Buffer.concat([body.subarray(0, end), Buffer.from(` data-look="${look}"`), body.subarray(end)]);
}

/** An HTML page's bytes, with the pages' security headers. */
export function sendPage(reply: FastifyReply, status: number, body: Buffer): FastifyReply {
  body = withLook(reply.request, body);
  return reply
    .code(status)
    .header('content-security-policy', PAGE_CSP)
    .header('referrer-policy', 'no-referrer')
    .type('text/html; charset=utf-8')
    .send(body);
}

/** A short HTML page saying what happened, with where to go next (by default the schedule). */
export function sendMessage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  page: { title: string; message: string; links?: ReadonlyArray<{ href: string; text: string }> },
): FastifyReply {
  const { siteName, assets } = request.server.memberPages;
  const links = page.links ?? [{ href: '/', text: 'Back to the schedule' }];
  return sendPage(
    reply.header('cache-control', 'no-store'),
    status,
    messagePage({ siteName, assets, account: accountView(request), title: page.title, message: page.message, links }),
  );
}

/** Signed out: 303 to sign-in, back to this page afterwards (a POST comes back to the page it was posted from). */
async function toSignIn(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!signInEnabled(request)) {
    await sendMessage(request, reply, 404, { title: 'Not available', message: 'Signing in is not set up on this site.' });
    return;
  }
  const back = request.method === 'GET' ? request.url : (refererPath(request) ?? '/');
  await reply.redirect(signInPath(back), 303);
}

function refererPath(request: FastifyRequest): string | null {
  const referer = request.headers.referer;
  if (referer === undefined) return null;
  try {
    const url = new URL(referer);
    return url.host === request.host ? `${url.pathname}${url.search}` : null;
  } catch {
    return null;
  }
}

function sentToken(request: FastifyRequest): string | null {
  const body = request.body as Record<string, unknown> | null | undefined;
  const field = body !== null && typeof body === 'object' ? body[CSRF_FIELD] : undefined;
  if (typeof field === 'string') return field;
  // An upload's form carries its token in its URL (?_csrf=…): checked here, before its body is read.
  if (request.headers['content-type']?.toLowerCase().startsWith('multipart/form-data')) {
    const query = request.query as Record<string, unknown> | null | undefined;
    const inUrl = query !== null && typeof query === 'object' ? query[CSRF_FIELD] : undefined;
    if (typeof inUrl === 'string') return inUrl;
  }
  const header = request.headers['x-csrf-token'];
  return typeof header === 'string' ? header : null;
}

/** Whether the request carries this session's CSRF token. */
function csrfHolds(request: FastifyRequest): boolean {
  const session = request.memberSession;
  const token = sentToken(request);
  return session !== null && token !== null && request.server.memberPages.tokens.verify(session.csrfSecret, token);
}

/** 403, nothing done: the form did not carry this session's CSRF token. */
const refuseForm = (request: FastifyRequest, reply: FastifyReply) =>
  sendMessage(request, reply, 403, {
    title: 'Form refused',
    message:
      'This form was not sent from a page of this site opened in your current session, so nothing was changed. Open the page again and resend it.',
  });

/** Every page request that may change something (not a GET or HEAD) is a form: it carries the token. */
const isForm = (request: FastifyRequest): boolean => request.method !== 'GET' && request.method !== 'HEAD';

/**
 * The checks of the members' and staff scopes, in this order: signed in, then a form's CSRF token.
 * False when the request was refused (its response sent).
 */
export async function memberPasses(request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  if (request.member === null) {
    await toSignIn(request, reply);
    return false;
  }
  if (isForm(request) && !csrfHolds(request)) {
    await refuseForm(request, reply);
    return false;
  }
  return true;
}

/** The members' scope's guard: every route in it is for a signed-in member, every form carries the token. */
export const memberGuard: preValidationAsyncHookHandler = async (request, reply) => {
  if (!(await memberPasses(request, reply))) return reply;
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A sign-in form: its token is bound to the sign-in cookie (there may be no session yet) and checked by its route. */
    signInForm?: boolean;
  }
}

/**
 * The public pages' guard: anyone may open them, but a form a signed-in member posts (signing out)
 * carries their session's token; signed out, there is no session to act for.
 */
export const publicPageGuard: preValidationAsyncHookHandler = async (request, reply) => {
  if (request.member === null || !isForm(request) || request.routeOptions.config.signInForm === true) return;
  if (!csrfHolds(request)) return refuseForm(request, reply);
};
