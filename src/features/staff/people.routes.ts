// GET /staff/users/{cid}, the person page, and its forms: issue an endorsement, change its end,
// revoke it; grant and revoke roles. Each form posts to the services the API uses; success is a
// 303 back to the person with a notice, a rule failure the page again (422) with the message
// beside its field, an action the viewer's roles do not allow 403 with the reason.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConflictError, ForbiddenError, UpstreamError } from '../../core/domain/errors.js';
import { mayDo, STAFF_ROLES } from '../roles/domain.js';
import { formFailure, formValues, pathFailed } from '../../core/web/forms.js';
import { memberActor, sendPage } from '../../core/web/pages.js';
import { type FormState, NO_FORM } from '../roles/index.js';
import { personPage } from './views/users.js';
import { endorsementEndForm, endorsementRevokeForm, issueEndorsementForm, roleForm, staffPersonPage } from './staff-pages.schema.js';
import type { RouteServices } from '../../app/services.js';
import type { StaffView } from './staff.service.js';
import { failureOf, frameOf, lastDayAt, notFound, noticeOf, respondToRefusal, viewerOf } from '../roles/index.js';

const NOTICES = {
  issued: 'Endorsement issued.',
  shortened: 'The endorsement’s end was changed.',
  revoked: 'Endorsement revoked.',
  granted: 'Role granted.',
  'role-revoked': 'Role revoked.',
  'hub-retried': "The request is sent to the division's hub again.",
};

/** Whether the viewer may issue (and change) endorsements at all; the services decide each one. */
const mayIssueOf = (view: StaffView): boolean =>
  view.myAreas.some((a) =>
    ['Administrator', 'Moderator', 'Mentor'].some((r) => view.member.divisionAdmin || view.member.areaRoles.get(a.id)?.has(r)),
  );

/** What the viewer may grant: roles and areas ('' division-wide) with at least one allowed pair. */
function grantChoices(view: StaffView) {
  const pairs = view.areas.flatMap((a) =>
    STAFF_ROLES.filter((role) => mayDo(view.member, { kind: 'role', role, area: a.id }).ok).map((role) => ({ role, area: a.name })),
  );
  if (view.member.divisionAdmin) pairs.push({ role: 'Administrator', area: '' });
  const roles = STAFF_ROLES.filter((r) => pairs.some((p) => p.role === r));
  const areas = [...new Set(pairs.map((p) => p.area))].map((a) => ({
    value: a,
    text: a === '' ? 'Division-wide (Administrator only)' : a,
  }));
  return { roles, areas };
}

const peopleRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const actor = (request: FastifyRequest) => memberActor(request.member!);

  async function sendPerson(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    cid: number,
    state: FormState,
    notice: string | null,
    hubDown: string | null = null,
  ) {
    const person = await services.staff.person(cid);
    if (person === null) return notFound(request, reply, 'person');
    // Asked while the page's other reads run; a hub just found down is not asked again.
    const hub = services.divisionQuestions;
    const hubExams = !hub
      ? Promise.resolve(null)
      : hubDown !== null
        ? Promise.resolve({ ok: false as const, host: hub.host, error: hubDown })
        : hub.memberExams(cid);
    const view = viewerOf(request);
    const areaIds = new Map(view.areas.map((a) => [a.name, a.id]));
    const grant = grantChoices(view);
    const now = services.staff.now();
    const choices = await services.staff.issueChoices();
    const mayIssue = mayIssueOf(view);
    const refused = services.divisionApi
      ? await services.divisionApi.refusedAbout(person.endorsements.map((e) => `endorsement:${e.id}`))
      : new Map<string, string>();
    const hubRefusals = new Map(
      person.endorsements.flatMap((e) => {
        const m = refused.get(`endorsement:${e.id}`);
        return m === undefined ? [] : [[e.id, m] as const];
      }),
    );
    const page = personPage({
      ...frameOf(request, services),
      person,
      notice,
      state,
      now,
      mayIssue,
      hubRefusals,
      hubExams: await hubExams,
      issue: { choices, areas: view.areas.map((a) => a.name), today: new Date(now).toISOString().slice(0, 10) },
      roles: {
        revocable: person.roles.map(
          (r) => mayDo(view.member, { kind: 'role', role: r.role, area: r.area === null ? null : (areaIds.get(r.area) ?? null) }).ok,
        ),
        grantRoles: grant.roles,
        grantAreas: grant.areas,
      },
    });
    return sendPage(reply, status, page);
  }

  /** Runs a change; 303 to the person with a notice, or the form again, 403 or 404. */
  async function change(
    request: FastifyRequest,
    reply: FastifyReply,
    cid: number,
    state: Omit<FormState, 'errors'>,
    done: string,
    act: () => Promise<unknown>,
  ) {
    try {
      await act();
      return await reply.redirect(`/staff/users/${cid}?done=${done}`, 303);
    } catch (err) {
      const errors = failureOf(err);
      // The hub could not be asked (issuing a solo): the form again with why, nothing stored.
      if (err instanceof UpstreamError)
        return sendPerson(request, reply, 502, cid, { ...state, errors: { hub: [err.message] } }, null, err.message);
      const conflict = err instanceof ConflictError;
      // An ended endorsement shows no forms: its conflict is said at the top of the page.
      const form = conflict && state.form.startsWith('end-') ? 'page' : state.form;
      if (errors) return sendPerson(request, reply, conflict ? 409 : 422, cid, { ...state, form, errors }, null);
      return respondToRefusal(request, reply, err, 'person');
    }
  }

  const form = { attachValidation: true } as const;

  app.get('/staff/users/:cid', { schema: staffPersonPage, ...form }, async (request, reply) => {
    if (pathFailed(request)) return notFound(request, reply, 'person');
    const { type, positions } = request.query;
    const prefilled = type === '' ? NO_FORM : { form: 'issue', values: { type, positions }, errors: {} };
    return sendPerson(request, reply, 200, request.params.cid, prefilled, noticeOf(request.query.done, NOTICES));
  });

  app.post('/staff/users/:cid/endorsements', { schema: issueEndorsementForm, ...form }, async (request, reply) => {
    const failed = formFailure(request);
    if (failed?.part === 'params') return notFound(request, reply, 'person');
    const { cid } = request.params;
    const b = request.body;
    const state = { form: 'issue', values: formValues(b) };
    if (failed) return sendPerson(request, reply, 422, cid, { ...state, errors: failed.errors }, null);
    const req = {
      type: b.type,
      rating: b.rating === '' ? null : b.rating,
      areas: b.areas,
      positions: b.positions === '' ? [] : [b.positions],
      valid_from: services.staff.now(),
      valid_to: lastDayAt(b.valid_to),
    };
    return change(request, reply, cid, state, 'issued', () => services.endorsements.issue(cid, req, actor(request)));
  });

  /** The endorsement's holder (where its forms live), or a 404 page. */
  async function holderOf(request: FastifyRequest, reply: FastifyReply, id: number | null): Promise<{ id: number; cid: number } | null> {
    const found = id === null ? null : await services.endorsements.find(id).catch(() => null);
    if (found === null) {
      await notFound(request, reply, 'endorsement');
      return null;
    }
    return { id: found.id, cid: found.user_id };
  }

  app.post('/staff/endorsements/:id/end', { schema: endorsementEndForm, ...form }, async (request, reply) => {
    const failed = formFailure(request);
    const held = await holderOf(request, reply, failed?.part === 'params' ? null : request.params.id);
    if (held === null) return reply;
    const state = { form: `end-${held.id}`, values: formValues(request.body) };
    if (failed) return sendPerson(request, reply, 422, held.cid, { ...state, errors: failed.errors }, null);
    const end = lastDayAt(request.body.valid_to);
    return change(request, reply, held.cid, state, 'shortened', () => services.endorsements.setEnd(held.id, end, actor(request)));
  });

  app.post('/staff/endorsements/:id/revoke', { schema: endorsementRevokeForm, ...form }, async (request, reply) => {
    const held = await holderOf(request, reply, pathFailed(request) ? null : request.params.id);
    if (held === null) return reply;
    return change(request, reply, held.cid, { form: `end-${held.id}`, values: {} }, 'revoked', () =>
      services.endorsements.revoke(held.id, actor(request)),
    );
  });

  // A request the division's hub refused about the endorsement, sent again by staff who may change endorsements.
  app.post('/staff/endorsements/:id/hub-retry', { schema: endorsementRevokeForm, ...form }, async (request, reply) => {
    const held = await holderOf(request, reply, pathFailed(request) ? null : request.params.id);
    if (held === null) return reply;
    return change(request, reply, held.cid, { form: 'page', values: {} }, 'hub-retried', async () => {
      if (!mayIssueOf(viewerOf(request)))
        throw new ForbiddenError('Sending a request to the division’s hub again is for staff who may change endorsements.');
      if (!services.divisionApi) throw new ConflictError("No division's hub is configured (DIVISION_API).");
      await services.divisionApi.retryRefused({ about: `endorsement:${held.id}` });
    });
  });

  for (const [path, what] of [
    ['/staff/users/:cid/roles', 'granted'],
    ['/staff/users/:cid/roles/revoke', 'role-revoked'],
  ] as const) {
    app.post(path, { schema: roleForm, ...form }, async (request, reply) => {
      const failed = formFailure(request);
      if (failed?.part === 'params') return notFound(request, reply, 'person');
      const { cid } = request.params;
      const { role, area } = request.body;
      const state = { form: 'role', values: formValues(request.body) };
      if (failed) return sendPerson(request, reply, 422, cid, { ...state, errors: failed.errors }, null);
      const roles = services.roles;
      const areaOrNone = area === '' ? null : area;
      const run = () =>
        what === 'granted' ? roles.grant(cid, role, areaOrNone, actor(request)) : roles.revoke(cid, role, areaOrNone, actor(request));
      return change(request, reply, cid, state, what, run);
    });
  }
};

export default peopleRoutes;
