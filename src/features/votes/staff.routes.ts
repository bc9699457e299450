// The votes' staff pages (contract §23), for division-wide Administrators: GET/POST /staff/votes,
// GET/POST /staff/votes/{id} (edit until the first ballot), POST /staff/votes/{id}/delete.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { formFailure, formValues, pathFailed } from '../../core/web/forms.js';
import { memberActor, sendPage } from '../../core/web/pages.js';
import { mayDo } from '../roles/domain.js';
import {
  createVoteForm,
  deleteVoteForm,
  staffVotePage as voteSchema,
  staffVotesPage as listSchema,
  updateVoteForm,
} from './votes.schema.js';
import { staffVotePage, staffVotesPage } from './views/staff-votes-page.js';
import type { RouteServices } from '../../app/services.js';
import { type FormState, failureOf, frameOf, NO_FORM, notFound, noticeOf, refuse, respondToRefusal, viewerOf } from '../roles/index.js';

const form = { attachValidation: true } as const;
const NOTICES = { created: 'Vote added.', saved: 'Vote saved.', deleted: 'Vote deleted.' };
const REFUSED = 'Votes are created by an Administrator of the whole division.';

const votesStaffRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const allowed = (request: FastifyRequest) => mayDo(viewerOf(request).member, { kind: 'votes' }).ok;

  async function sendList(request: FastifyRequest, reply: FastifyReply, status: number, state: FormState, done = '') {
    if (!allowed(request)) return refuse(request, reply, REFUSED);
    const votes = await services.votes.all();
    return sendPage(reply, status, staffVotesPage({ ...frameOf(request, services), votes, state, notice: noticeOf(done, NOTICES) }));
  }

  async function sendOne(request: FastifyRequest, reply: FastifyReply, id: number, status: number, state: FormState) {
    if (!allowed(request)) return refuse(request, reply, REFUSED);
    const vote = (await services.votes.all()).find((v) => v.vote.id === id);
    if (!vote) return notFound(request, reply, 'vote');
    return sendPage(reply, status, staffVotePage({ ...frameOf(request, services), vote, state }));
  }

  async function change(
    request: FastifyRequest,
    reply: FastifyReply,
    done: string,
    act: () => Promise<unknown>,
    again: (status: number, errors: Record<string, string[]>) => Promise<unknown>,
  ) {
    try {
      await act();
      return await reply.redirect(`/staff/votes?done=${done}`, 303);
    } catch (err) {
      const errors = failureOf(err);
      if (errors) return again(errors.form ? 409 : 422, errors);
      return respondToRefusal(request, reply, err, 'vote');
    }
  }

  app.get('/staff/votes', { schema: listSchema }, (request, reply) => sendList(request, reply, 200, NO_FORM, request.query.done));

  app.post('/staff/votes', { schema: createVoteForm, ...form }, (request, reply) => {
    if (!allowed(request)) return refuse(request, reply, REFUSED);
    const failed = formFailure(request);
    const state = { form: 'vote-new', values: formValues(request.body) };
    if (failed) return sendList(request, reply, 422, { ...state, errors: failed.errors });
    return change(
      request,
      reply,
      'created',
      () => services.votes.create(request.body, memberActor(request.member!)),
      (status, errors) => sendList(request, reply, status, { ...state, errors }),
    );
  });

  app.get('/staff/votes/:id', { schema: voteSchema, ...form }, (request, reply) => {
    if (pathFailed(request)) return notFound(request, reply, 'vote');
    return sendOne(request, reply, request.params.id, 200, NO_FORM);
  });

  app.post('/staff/votes/:id', { schema: updateVoteForm, ...form }, (request, reply) => {
    const failed = formFailure(request);
    if (failed?.part === 'params') return notFound(request, reply, 'vote');
    const { params, body } = request;
    const state = { form: 'vote', values: formValues(body) };
    if (failed) return sendOne(request, reply, params.id, 422, { ...state, errors: failed.errors });
    return change(
      request,
      reply,
      'saved',
      () => services.votes.update(params.id, body, memberActor(request.member!)),
      (status, errors) => sendOne(request, reply, params.id, status, { ...state, errors }),
    );
  });

  app.post('/staff/votes/:id/delete', { schema: deleteVoteForm, ...form }, (request, reply) => {
    if (formFailure(request)) return notFound(request, reply, 'vote');
    return change(
      request,
      reply,
      'deleted',
      () => services.votes.remove(request.params.id, memberActor(request.member!)),
      (status, errors) => sendList(request, reply, status, { form: 'vote-new', values: {}, errors }),
    );
  });
};

export default votesStaffRoutes;
