// The sweatbox's staff pages (contract §23): GET/POST /staff/sweatbox (the sessions and a form to book
// one), GET/POST /staff/sweatbox/{id} (edit) and POST /staff/sweatbox/{id}/delete. The staff scope's
// guard lets in anyone holding a role; changing a session is its booker's or its area's staff's.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { formFailure, formValues, pathFailed } from '../../core/web/forms.js';
import { memberActor, sendPage } from '../../core/web/pages.js';
import { mayDo } from '../roles/domain.js';
import {
  createSessionForm,
  deleteSessionForm,
  sessionPage as sessionSchema,
  sweatboxPage as listSchema,
  updateSessionForm,
} from './sweatbox.schema.js';
import { sessionPage, sweatboxPage } from './views/sweatbox-page.js';
import type { RouteServices } from '../../app/services.js';
import { type FormState, failureOf, frameOf, NO_FORM, notFound, noticeOf, refuse, respondToRefusal, viewerOf } from '../roles/index.js';

const form = { attachValidation: true } as const;
const NOTICES = { created: 'Session booked.', saved: 'Session saved.', deleted: 'Session deleted.' };
const REFUSED = "A sweatbox session is changed by its booker or by the Administrators and Moderators of the position's area.";

const sweatboxStaffRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const mayChange = (request: FastifyRequest, s: { area_id: number | null; user_id: number }) =>
    mayDo(viewerOf(request).member, { kind: 'sweatbox', area: s.area_id, booker: s.user_id }).ok;

  async function sendList(request: FastifyRequest, reply: FastifyReply, status: number, state: FormState, done = '') {
    const [sessions, callsigns] = await Promise.all([services.sweatbox.upcoming(), services.sweatbox.callsigns()]);
    const page = sweatboxPage({
      ...frameOf(request, services),
      sessions: sessions.map((session) => ({ session, mayChange: mayChange(request, session) })),
      callsigns: [...callsigns].sort(),
      today: new Date(services.clock()).toISOString().slice(0, 10),
      state,
      notice: noticeOf(done, NOTICES),
    });
    return sendPage(reply, status, page);
  }

  async function sendOne(request: FastifyRequest, reply: FastifyReply, id: number, status: number, state: FormState) {
    const session = await services.sweatbox.find(id);
    if (!session) return notFound(request, reply, 'session');
    if (!mayChange(request, session)) return refuse(request, reply, REFUSED);
    const callsigns = [...(await services.sweatbox.callsigns())].sort();
    return sendPage(reply, status, sessionPage({ ...frameOf(request, services), session, callsigns, state }));
  }

  /** 303 to the list after a change; the form again with its errors (422, or 409 for an overlap); or a 403/404 page. */
  async function change(
    request: FastifyRequest,
    reply: FastifyReply,
    done: string,
    act: () => Promise<unknown>,
    again: (status: number, errors: Record<string, string[]>) => Promise<unknown>,
  ) {
    try {
      await act();
      return await reply.redirect(`/staff/sweatbox?done=${done}`, 303);
    } catch (err) {
      const errors = failureOf(err);
      if (errors) return again(errors.form ? 409 : 422, errors);
      return respondToRefusal(request, reply, err, 'session');
    }
  }

  app.get('/staff/sweatbox', { schema: listSchema }, (request, reply) => sendList(request, reply, 200, NO_FORM, request.query.done));

  app.post('/staff/sweatbox', { schema: createSessionForm, ...form }, (request, reply) => {
    const failed = formFailure(request);
    const state = { form: 'session-new', values: formValues(request.body) };
    if (failed) return sendList(request, reply, 422, { ...state, errors: failed.errors });
    return change(
      request,
      reply,
      'created',
      () => services.sweatbox.create(request.body, memberActor(request.member!)),
      (status, errors) => sendList(request, reply, status, { ...state, errors }),
    );
  });

  app.get('/staff/sweatbox/:id', { schema: sessionSchema, ...form }, (request, reply) => {
    if (pathFailed(request)) return notFound(request, reply, 'session');
    return sendOne(request, reply, request.params.id, 200, NO_FORM);
  });

  app.post('/staff/sweatbox/:id', { schema: updateSessionForm, ...form }, (request, reply) => {
    const failed = formFailure(request);
    if (failed?.part === 'params') return notFound(request, reply, 'session');
    const { params, body } = request;
    const state = { form: 'session', values: formValues(body) };
    if (failed) return sendOne(request, reply, params.id, 422, { ...state, errors: failed.errors });
    return change(
      request,
      reply,
      'saved',
      () => services.sweatbox.update(params.id, body, memberActor(request.member!)),
      (status, errors) => sendOne(request, reply, params.id, status, { ...state, errors }),
    );
  });

  app.post('/staff/sweatbox/:id/delete', { schema: deleteSessionForm, ...form }, (request, reply) => {
    if (formFailure(request)) return notFound(request, reply, 'session');
    const { id } = request.params;
    return change(
      request,
      reply,
      'deleted',
      () => services.sweatbox.remove(id, memberActor(request.member!)),
      () => sendList(request, reply, 409, NO_FORM),
    );
  });
};

export default sweatboxStaffRoutes;
