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
import { mayDo } from '../roles/domain.js';
import { trainingPage } from './views/staff-detail.js';
import { completionOffer, trainingTasksSection } from '../tasks/index.js';
import { trainingsPage } from './views/staff-list.js';
import { linkCreatedPage } from './views/link-pages.js';
import { createLinkForm } from './links.schema.js';
import {
  createTrainingForm,
  examCancelForm,
  examGradeForm,
  examMoveForm,
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
  exam: 'Examination saved.',
  graded: 'Examination graded.',
  moved: 'Examination changed.',
  cancelled: 'Examination cancelled.',
  'report-edited': 'Report saved.',
  'report-published': 'Report published: the student was told.',
  'report-deleted': 'Report deleted.',
  attached: 'File added.',
  removed: 'File removed.',
  task: 'Request sent: the person asked was told.',
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
      createIn: view.myAreas
        .filter((a) => mayDo(view.member, { kind: 'training', area: a.id, student: 0, statusOnly: false }).ok)
        .map((a) => a.name),
      filter,
      today: today(),
      state,
      notice: noticeOf(query.done, NOTICES),
    });
    return sendPage(reply, status, page);
  }

  async function sendTraining(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    status: number,
    state: FormState,
    notice = '',
    template = '',
  ) {
    const view = await services.trainingDesk.detail(viewerOf(request), id);
    if (view === null) return notFound(request, reply, 'training');
    const reports = await services.trainingReports.desk(viewerOf(request), view.record, view.detail.reports);
    // "Start from template": the report form opened with the template's text (§20).
    const picked = reports.templates.find((x) => String(x.id) === template);
    const shown = picked ? { form: 'report', values: { report_date: today(), content: picked.content }, errors: {} } : state;
    // The training's tasks and "Request…" (§21): the tasks feature's part of this page.
    const member = viewerOf(request).member;
    const tasks = await services.taskPages.ofTraining(member, view.record);
    const part = { trainingId: id, viewer: member.cid, tasks, csrf: frameOf(request, services).csrf, state: shown };
    return sendPage(
      reply,
      status,
      trainingPage({
        ...frameOf(request, services),
        view,
        reports,
        today: today(),
        state: shown,
        notice: noticeOf(notice, NOTICES),
        csrfToken: csrfToken(request),
        tasks: trainingTasksSection(part),
        offer: completionOffer(view.detail, tasks.mayCreate),
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
    return sendTraining(request, reply, request.params.id, 200, NO_FORM, request.query.done, request.query.template);
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
    const input = { examination_date: b.examination_date, start: b.start, position: b.position, examiners: b.examiners, result: b.result };
    return trainingForm(request, reply, params.id, 'exam', 'exam', () =>
      services.trainingExaminations.add(params.id, input, memberActor(request.member!)),
    );
  });

  // An examination's own forms, each its form name with the examination's id (the page shows its message beside it).
  app.post('/staff/trainings/:id/examinations/:xid/grade', { schema: examGradeForm, ...form }, (request, reply) => {
    const { id, xid } = request.params;
    return trainingForm(request, reply, id, `exam-${xid}-grade`, 'graded', () =>
      services.trainingExaminations.change(id, xid, { result: request.body.result }, memberActor(request.member!)),
    );
  });

  app.post('/staff/trainings/:id/examinations/:xid/move', { schema: examMoveForm, ...form }, (request, reply) => {
    const { params, body: b } = request;
    const patch = { examination_date: b.examination_date, start: b.start, position: b.position, examiners: b.examiners };
    return trainingForm(request, reply, params.id, `exam-${params.xid}-move`, 'moved', () =>
      services.trainingExaminations.change(params.id, params.xid, patch, memberActor(request.member!)),
    );
  });

  app.post('/staff/trainings/:id/examinations/:xid/cancel', { schema: examCancelForm, ...form }, (request, reply) => {
    const { id, xid } = request.params;
    return trainingForm(request, reply, id, `exam-${xid}-cancel`, 'cancelled', () =>
      services.trainingExaminations.cancel(id, xid, memberActor(request.member!)),
    );
  });

  // A one-time link (§20): its address is shown on this response only (stored as a hash), so no redirect.
  app.post('/staff/trainings/:id/links', { schema: createLinkForm, ...form }, async (request, reply) => {
    const failed = formFailure(request);
    if (failed?.part === 'params') return notFound(request, reply, 'training');
    const { params, body: b } = request;
    // A grading link's refusal is shown beside its examination's forms, a report link's beside its own.
    const examinationId = /^\d{1,10}$/.test(b.examination_id) ? Number(b.examination_id) : undefined;
    const state = { form: b.kind === 'examination' ? `exam-${b.examination_id}-link` : 'link', values: formValues(b) };
    if (failed) return sendTraining(request, reply, params.id, 422, { ...state, errors: failed.errors });
    try {
      const input = { kind: b.kind, ...(examinationId !== undefined ? { examination_id: examinationId } : {}) };
      const made = await services.trainingLinks.create(params.id, input, memberActor(request.member!));
      reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
      return await sendPage(reply, 201, linkCreatedPage({ ...frameOf(request, services), ...made, trainingId: params.id }));
    } catch (err) {
      const errors = failureOf(err);
      if (errors) return sendTraining(request, reply, params.id, err instanceof ConflictError ? 409 : 422, { ...state, errors });
      return respondToRefusal(request, reply, err, 'training');
    }
  });
};

export default staffTrainingsRoutes;
