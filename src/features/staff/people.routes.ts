// GET /staff/users/{cid}, the person page, and its forms: issue an endorsement, change its end,
// revoke it; grant and revoke roles. Each form posts to the services the API uses; success is a
// 303 back to the person with a notice, a rule failure the page again (422) with the message
// beside its field, an action the viewer's roles do not allow 403 with the reason.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConflictError } from '../../core/domain/errors.js';
import { mayDo, STAFF_ROLES } from '../roles/domain.js';
import { memberActor, sendPage } from '../../core/web/pages.js';
import { type FormState, NO_FORM } from '../roles/staff-frame.view.js';
import { personPage } from './views/users.js';
import { endorsementEndForm, endorsementRevokeForm, issueEndorsementForm, roleForm, staffPersonPage } from '../roles/staff-pages.schema.js';
import type { RouteServices } from '../../app/services.js';
import type { StaffView } from './staff.service.js';
import { all, respondToRefusal, failureOf, frameOf, idOf, lastDayOf, notFound, noticeOf, text, viewerOf } from '../roles/staff-scope.js';

const NOTICES = {
  issued: 'Endorsement issued.',
  shortened: 'The endorsement’s end was changed.',
  revoked: 'Endorsement revoked.',
  granted: 'Role granted.',
  'role-revoked': 'Role revoked.',
};

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
  ) {
    const person = await services.staff.person(cid);
    if (person === null) return notFound(request, reply, 'person');
    const view = viewerOf(request);
    const areaIds = new Map(view.areas.map((a) => [a.name, a.id]));
    const grant = grantChoices(view);
    const now = services.staff.now();
    const choices = await services.staff.issueChoices();
    const mayIssue = view.myAreas.some((a) =>
      ['Administrator', 'Moderator', 'Mentor'].some((r) => view.member.divisionAdmin || view.member.areaRoles.get(a.id)?.has(r)),
    );
    const page = personPage({
      ...frameOf(request, services),
      person,
      notice,
      state,
      now,
      mayIssue,
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
      const conflict = err instanceof ConflictError;
      // An ended endorsement shows no forms: its conflict is said at the top of the page.
      const form = conflict && state.form.startsWith('end-') ? 'page' : state.form;
      if (errors) return sendPerson(request, reply, conflict ? 409 : 422, cid, { ...state, form, errors }, null);
      return respondToRefusal(request, reply, err, 'person');
    }
  }

  app.get('/staff/users/:cid', { schema: staffPersonPage }, async (request, reply) => {
    const cid = idOf(request.params.cid);
    if (cid === null) return notFound(request, reply, 'person');
    return sendPerson(request, reply, 200, cid, NO_FORM, noticeOf(request.query.done, NOTICES));
  });

  app.post('/staff/users/:cid/endorsements', { schema: issueEndorsementForm }, async (request, reply) => {
    const cid = idOf(request.params.cid);
    if (cid === null) return notFound(request, reply, 'person');
    const b = request.body;
    const values = {
      type: text(b.type),
      rating: text(b.rating),
      areas: all(b.areas).join(','),
      positions: text(b.positions),
      valid_to: text(b.valid_to),
    };
    const state = { form: 'issue', values };
    const end = lastDayOf('valid_to', values.valid_to);
    if (!end.ok) return sendPerson(request, reply, 422, cid, { ...state, errors: end.errors }, null);
    const req = {
      type: values.type,
      rating: values.rating === '' ? null : values.rating,
      areas: all(b.areas),
      positions: values.positions === '' ? [] : [values.positions],
      valid_from: services.staff.now(),
      valid_to: end.at,
    };
    return change(request, reply, cid, state, 'issued', () => services.endorsements.issue(cid, req, actor(request)));
  });

  /** The endorsement's holder (where its forms live), or a 404 page. */
  async function holderOf(request: FastifyRequest, reply: FastifyReply, raw: string): Promise<{ id: number; cid: number } | null> {
    const id = idOf(raw);
    const found = id === null ? null : await services.endorsements.find(id).catch(() => null);
    if (found === null) {
      await notFound(request, reply, 'endorsement');
      return null;
    }
    return { id: found.id, cid: found.user_id };
  }

  app.post('/staff/endorsements/:id/end', { schema: endorsementEndForm }, async (request, reply) => {
    const held = await holderOf(request, reply, request.params.id);
    if (held === null) return reply;
    const values = { valid_to: text(request.body.valid_to) };
    const state = { form: `end-${held.id}`, values };
    const end = lastDayOf('valid_to', values.valid_to);
    if (!end.ok) return sendPerson(request, reply, 422, held.cid, { ...state, errors: end.errors }, null);
    return change(request, reply, held.cid, state, 'shortened', () => services.endorsements.setEnd(held.id, end.at, actor(request)));
  });

  app.post('/staff/endorsements/:id/revoke', { schema: endorsementRevokeForm }, async (request, reply) => {
    const held = await holderOf(request, reply, request.params.id);
    if (held === null) return reply;
    return change(request, reply, held.cid, { form: `end-${held.id}`, values: {} }, 'revoked', () =>
      services.endorsements.revoke(held.id, actor(request)),
    );
  });

  for (const [path, what] of [
    ['/staff/users/:cid/roles', 'granted'],
    ['/staff/users/:cid/roles/revoke', 'role-revoked'],
  ] as const) {
    app.post(path, { schema: roleForm }, async (request, reply) => {
      const cid = idOf(request.params.cid);
      if (cid === null) return notFound(request, reply, 'person');
      const values = { role: text(request.body.role), area: text(request.body.area) };
      const area = values.area === '' ? null : values.area;
      const roles = services.roles;
      const run = () =>
        what === 'granted' ? roles.grant(cid, values.role, area, actor(request)) : roles.revoke(cid, values.role, area, actor(request));
      return change(request, reply, cid, { form: 'role', values }, what, run);
    });
  }
};

export default peopleRoutes;
