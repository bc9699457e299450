// What every staff page route shares (contract §17): the scope's guard (signed in and holding a role,
// else sign-in or a 403 page saying why), the viewer as staff, the frame, and the refusal pages.
import type { FastifyReply, FastifyRequest, preValidationAsyncHookHandler } from 'fastify';
import { ConflictError, type FieldErrors, ForbiddenError, NotFoundError, ValidationError } from '../../core/domain/errors.js';
import { isMentor, mayDo } from './domain.js';
import { accountView, csrfField, memberPasses, sendMessage } from '../../core/web/pages.js';
import type { StaffFrame } from './staff-frame.view.js';
import type { RouteServices } from '../../app/services.js';
import type { StaffView } from './roles.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The staff scope's viewer: set by its guard once the member is known to hold a role. */
    staffViewer: StaffView | null;
  }
}

/**
 * The staff scope's guard, one hook for every route in it (contract §17): signed in, then a form's
 * CSRF token, then a role in an area; a member without one gets 403 with the reason.
 */
export function staffGuard(services: RouteServices): preValidationAsyncHookHandler {
  return async (request, reply) => {
    if (!(await memberPasses(request, reply))) return reply;
    const view = await services.roles.viewer(request.member!.cid);
    if (!view.isStaff) {
      return refuse(
        request,
        reply,
        'The staff pages are for members holding a role (Administrator, Moderator, Mentor or Buddy) in an area.',
      );
    }
    request.staffViewer = view;
  };
}

export const viewerOf = (request: FastifyRequest): StaffView => request.staffViewer!;

/** The areas (names) whose positions the viewer manages. */
export const positionAreas = (view: StaffView): string[] =>
  view.areas.filter((a) => mayDo(view.member, { kind: 'positions', area: a.id }).ok).map((a) => a.name);

/** The areas whose report templates the viewer keeps (§20). */
export const templateAreas = (view: StaffView) => view.areas.filter((a) => mayDo(view.member, { kind: 'templates', area: a.id }).ok);

export function frameOf(request: FastifyRequest, services: RouteServices): StaffFrame {
  return {
    siteName: services.config.siteName,
    assets: request.server.memberPages.assets,
    account: accountView(request),
    csrf: csrfField(request),
    managesPositions: positionAreas(viewerOf(request)).length > 0,
    mentors: isMentor(viewerOf(request).member),
    keepsTemplates: templateAreas(viewerOf(request)).length > 0,
    keepsVotes: viewerOf(request).member.divisionAdmin,
    readsFeedback: mayDo(viewerOf(request).member, { kind: 'feedback', area: null }).ok,
    readsReports: viewerOf(request).areas.some((a) => mayDo(viewerOf(request).member, { kind: 'reports', area: a.id }).ok),
    readsAudit: mayDo(viewerOf(request).member, { kind: 'audit' }).ok,
  };
}

/** Where to go from a refusal: the staff overview only for a viewer it opens for (not one the guard refused). */
const linksOf = (request: FastifyRequest) => [
  ...(request.staffViewer?.isStaff ? [{ href: '/staff', text: 'Staff overview' }] : []),
  { href: '/', text: 'Back to the schedule' },
];

/** 403: an action or a page the viewer's roles do not allow, with the reason; a refused form also says nothing changed. */
export const refuse = (request: FastifyRequest, reply: FastifyReply, reason: string) =>
  sendMessage(request, reply, 403, {
    title: 'Not allowed',
    message: request.method === 'GET' || request.method === 'HEAD' ? reason : `${reason} Nothing was changed.`,
    links: linksOf(request),
  });

export const notFound = (request: FastifyRequest, reply: FastifyReply, what: string) =>
  sendMessage(request, reply, 404, { title: `No such ${what}`, message: `There is no such ${what}.`, links: linksOf(request) });

/** A form's failure as the form again: field errors beside their fields, a conflict above them (the `form` key). */
export function failureOf(err: unknown): FieldErrors | null {
  if (err instanceof ValidationError) return err.errors;
  if (err instanceof ConflictError) return { form: [err.message] };
  return null;
}

/** 403 or 404 pages for the errors that are not the form's; rethrows anything else. */
export async function respondToRefusal(request: FastifyRequest, reply: FastifyReply, err: unknown, what: string): Promise<FastifyReply> {
  if (err instanceof ForbiddenError) return refuse(request, reply, err.message);
  if (err instanceof NotFoundError) return notFound(request, reply, what);
  throw err;
}

/** The end of an endorsement from its last day (a checked date field, YYYY-MM-DD): 23:59 UTC that day; blank is no end. */
export const lastDayAt = (day: string): number | null =>
  day === '' ? null : Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)), 23, 59);

/** The confirmation after a 303, from a fixed list (a link cannot make the page say anything else). */
export const noticeOf = (done: string, notices: Record<string, string>): string | null =>
  Object.hasOwn(notices, done) ? notices[done]! : null;
