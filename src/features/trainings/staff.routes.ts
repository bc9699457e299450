// The staff training pages (contract §18, docs/training.md): GET /staff/trainings (queue, open
// trainings, examinations, a create form) and GET /staff/trainings/{id} with its forms. Every
// change goes through TrainingsService and TrainingRecordsService, the API's own services: one write each with
// its timeline, audit entry (actor member:<cid>), event and the student's mail.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { ConflictError } from '../../core/domain/errors.js';
import { formFailure, formValues, pathFailed } from '../../core/web/forms.js';
import { csrfToken, memberActor, sendPage } from '../../core/web/pages.js';
import { type FormState, NO_FORM } from '../roles/index.js';
import { trainingPage } from './views/staff-detail.js';
import { trainingsPage } from './views/staff-list.js';
import {
  createTrainingForm,
  staffTrainingPage,
  staffTrainingsPage,
  trainingChangeForm,
  trainingExamForm,
  trainingReportForm,
  trainingStatusForm,
} from './staff-pages.schema.js';
import type { RouteServices } from '../../app/services.js';
import { failureOf, frameOf, notFound, noticeOf, respondToRefusal, viewerOf } from '../roles/index.js';

const NOTICES = {
  created: 'Training created.',
  status: 'Status changed.',
  changed: 'Saved.',
  report: 'Report saved.',
  exam: 'Examination recorded.',
  attached: 'File added.',
  removed: 'File removed.',
};

type ListQuery = Static<typeof staffTrainingsPage.querystring>;
const NO_QUERY: ListQuery = { area: '', status: '', done: '' };
const form = { attachValidation: true } as const;

const staffTrainingsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const today = () => new Date(services.clock()).toISOString().slice(0, 10);

  async function sendList(request: FastifyRequest, reply: FastifyReply, status: number, state: FormState, query: ListQuery) {
    const view = viewerOf(request);
    const filter = { area: query.area, status: query.status };
    const area = view.myAreas.find((a) => a.name === filter.area)?.id;
    const code = /^[0-3]$/.test(filter.status) ? Number(filter.status) : undefined;
    const list = await services.trainingDesk.list(view, {
      ...(area !== undefined ? { area } : {}),
      ...(code !== undefined ? { status: code } : {}),
    });
    const page = trainingsPage({
      ...frameOf(request, services),
      list,
      areas: view.myAreas.map((a) => a.name),
      filter,
      today: today(),
      state,
      notice: noticeOf(query.done, NOTICES),
    });
    return sendPage(reply, status, page);
  }

  async function sendTraining(request: FastifyRequest, reply: FastifyReply, id: number, status: number, state: FormState, notice = '') {
    const view = await services.trainingDesk.detail(viewerOf(request), id);
    if (view === null) return notFound(request, reply, 'training');
    return sendPage(
      reply,
      status,
      trainingPage({
        ...frameOf(request, services),
        view,
        today: today(),
        state,
        notice: noticeOf(notice, NOTICES),
        csrfToken: csrfToken(request),
      }),
    );
  }

  /** Runs a change: 303 back to the page on success, the form again with its errors, or 403/404. */
  async function change(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number | null,
    state: Omit<FormState, 'errors'>,
    done: string,
    act: () => Promise<unknown>,
  ) {
    try {
      const made = await act();
      const to = id ?? (made as { id: number }).id;
      return await reply.redirect(`/staff/trainings/${to}?done=${done}`, 303);
    } catch (err) {
      const errors = failureOf(err);
      const code = err instanceof ConflictError ? 409 : 422;
      if (errors && id === null) return sendList(request, reply, code, { ...state, errors }, NO_QUERY);
      if (errors && id !== null) return sendTraining(request, reply, id, code, { ...state, errors });
      return respondToRefusal(request, reply, err, 'training');
    }
  }

  app.get('/staff/trainings', { schema: staffTrainingsPage }, (request, reply) => sendList(request, reply, 200, NO_FORM, request.query));

  app.get('/staff/trainings/:id', { schema: staffTrainingPage, ...form }, (request, reply) => {
    if (pathFailed(request)) return notFound(request, reply, 'training');
    return sendTraining(request, reply, request.params.id, 200, NO_FORM, request.query.done);
  });

  app.post('/staff/trainings', { schema: createTrainingForm, ...form }, (request, reply) => {
    const failed = formFailure(request);
    const b = request.body;
    const state = { form: 'training-new', values: formValues(b) };
    if (failed) return sendList(request, reply, 422, { ...state, errors: failed.errors }, NO_QUERY);
    const input = {
      user_id: b.user_id,
      area: b.area,
      type: b.type || 'Standard',
      status: b.status,
      ratings: b.ratings
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
    };
    return change(request, reply, null, state, 'created', () => services.trainings.create(input, memberActor(request.member!)));
  });

  /**
   * A form of one training: a path naming none is a 404, a refused field the training's page again
   * with the message beside it; otherwise the change, run through `change`.
   */
  function trainingForm(request: FastifyRequest, reply: FastifyReply, id: number, name: string, done: string, act: () => Promise<unknown>) {
    const failed = formFailure(request);
    if (failed?.part === 'params') return notFound(request, reply, 'training');
    const state = { form: name, values: formValues(request.body) };
    if (failed) return sendTraining(request, reply, id, 422, { ...state, errors: failed.errors });
    return change(request, reply, id, state, done, act);
  }

  app.post('/staff/trainings/:id/status', { schema: trainingStatusForm, ...form }, (request, reply) => {
    const { params, body: b } = request;
    const patch = { status: b.status, ...(b.closed_reason ? { closed_reason: b.closed_reason } : {}) };
    return trainingForm(request, reply, params.id, 'status', 'status', () =>
      services.trainings.update(params.id, patch, memberActor(request.member!)),
    );
  });

  app.post('/staff/trainings/:id', { schema: trainingChangeForm, ...form }, (request, reply) => {
    const { params, body: b } = request;
    const patch = { type: b.type, mentors: b.mentors, paused: b.paused };
    return trainingForm(request, reply, params.id, 'change', 'changed', () =>
      services.trainings.update(params.id, patch, memberActor(request.member!)),
    );
  });

  app.post('/staff/trainings/:id/reports', { schema: trainingReportForm, ...form }, (request, reply) => {
    const { params, body: b } = request;
    const input = {
      report_date: b.report_date,
      content: b.content,
      improve: b.improve || null,
      position: b.position || null,
      draft: b.draft,
    };
    return trainingForm(request, reply, params.id, 'report', 'report', () =>
      services.trainingRecords.addReport(params.id, input, memberActor(request.member!)),
    );
  });

  app.post('/staff/trainings/:id/examinations', { schema: trainingExamForm, ...form }, (request, reply) => {
    const { params, body: b } = request;
    const input = { examination_date: b.examination_date, position: b.position, examiner_id: b.examiner_id, result: b.result };
    return trainingForm(request, reply, params.id, 'exam', 'exam', () =>
      services.trainingRecords.addExamination(params.id, input, memberActor(request.member!)),
    );
  });
};

export default staffTrainingsRoutes;
