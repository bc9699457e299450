// The staff training pages (contract §18, docs/training.md): GET /staff/trainings (queue, open
// trainings, examinations, a create form) and GET /staff/trainings/{id} with its forms. Every
// change goes through Trainings and TrainingRecords, the API's own services: one write each with
// its timeline, audit entry (actor member:<cid>), event and the student's mail.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConflictError } from '../../core/domain/errors.js';
import { memberActor, sendPage } from '../../core/web/pages.js';
import { type FormState, NO_FORM } from '../roles/staff-frame.view.js';
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
import { all, respondToRefusal, failureOf, frameOf, idOf, notFound, noticeOf, text, viewerOf } from '../roles/staff-scope.js';

const NOTICES = {
  created: 'Training created.',
  status: 'Status changed.',
  changed: 'Saved.',
  report: 'Report saved.',
  exam: 'Examination recorded.',
};

/** A whole number from a form field, or NaN (the service's checks name the field). */
const numberOf = (raw: string) => (/^-?\d{1,10}$/.test(raw) ? Number(raw) : Number.NaN);

const staffTrainingsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const today = () => new Date(services.clock()).toISOString().slice(0, 10);

  async function sendList(request: FastifyRequest, reply: FastifyReply, status: number, state: FormState, query: Record<string, unknown>) {
    const view = viewerOf(request);
    const filter = { area: text(query.area), status: text(query.status) };
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

  async function sendTraining(request: FastifyRequest, reply: FastifyReply, id: number | null, status: number, state: FormState) {
    const view = id === null ? null : await services.trainingDesk.detail(viewerOf(request), id);
    if (view === null) return notFound(request, reply, 'training');
    const notice = noticeOf((request.query as Record<string, unknown> | undefined)?.done, NOTICES);
    return sendPage(reply, status, trainingPage({ ...frameOf(request, services), view, today: today(), state, notice }));
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
      if (errors && id === null) return sendList(request, reply, code, { ...state, errors }, {});
      if (errors) return sendTraining(request, reply, id, code, { ...state, errors });
      return respondToRefusal(request, reply, err, 'training');
    }
  }

  app.get('/staff/trainings', { schema: staffTrainingsPage }, (request, reply) => sendList(request, reply, 200, NO_FORM, request.query));

  app.get('/staff/trainings/:id', { schema: staffTrainingPage }, (request, reply) =>
    sendTraining(request, reply, idOf(request.params.id), 200, NO_FORM),
  );

  app.post('/staff/trainings', { schema: createTrainingForm }, (request, reply) => {
    const b = request.body;
    const values = { user_id: text(b.user_id), area: text(b.area), type: text(b.type), ratings: text(b.ratings), status: text(b.status) };
    const input = {
      user_id: numberOf(values.user_id),
      area: values.area,
      type: values.type || 'Standard',
      status: Math.max(0, Math.min(3, numberOf(values.status) || 0)),
      ratings: values.ratings
        .split(',')
        .map((r) => r.trim())
        .filter(Boolean),
    };
    return change(request, reply, null, { form: 'training-new', values }, 'created', () =>
      services.trainings.create(input, memberActor(request.member!)),
    );
  });

  app.post('/staff/trainings/:id/status', { schema: trainingStatusForm }, (request, reply) => {
    const id = idOf(request.params.id);
    const values = { status: text(request.body.status), closed_reason: text(request.body.closed_reason) };
    const patch = { status: numberOf(values.status), ...(values.closed_reason ? { closed_reason: values.closed_reason } : {}) };
    return change(request, reply, id, { form: 'status', values }, 'status', () =>
      services.trainings.update(id ?? 0, patch, memberActor(request.member!)),
    );
  });

  app.post('/staff/trainings/:id', { schema: trainingChangeForm }, (request, reply) => {
    const id = idOf(request.params.id);
    const b = request.body;
    // The boxes as sent (mentors' CIDs joined by commas), so a refused form comes back as it was ticked.
    const mentors = all(b.mentors);
    const values = { type: text(b.type), mentors: mentors.join(','), paused: text(b.paused) };
    const patch = { type: values.type, mentors: mentors.map(numberOf), paused: values.paused !== '' };
    return change(request, reply, id, { form: 'change', values }, 'changed', () =>
      services.trainings.update(id ?? 0, patch, memberActor(request.member!)),
    );
  });

  app.post('/staff/trainings/:id/reports', { schema: trainingReportForm }, (request, reply) => {
    const id = idOf(request.params.id);
    const b = request.body;
    const values = {
      report_date: text(b.report_date),
      position: text(b.position),
      content: text(b.content),
      improve: text(b.improve),
      draft: text(b.draft),
    };
    const input = { ...values, improve: values.improve || null, position: values.position || null, draft: values.draft !== '' };
    return change(request, reply, id, { form: 'report', values }, 'report', () =>
      services.trainingRecords.addReport(id ?? 0, input, memberActor(request.member!)),
    );
  });

  app.post('/staff/trainings/:id/examinations', { schema: trainingExamForm }, (request, reply) => {
    const id = idOf(request.params.id);
    const b = request.body;
    const values = {
      examination_date: text(b.examination_date),
      position: text(b.position),
      examiner_id: text(b.examiner_id),
      result: text(b.result),
    };
    return change(request, reply, id, { form: 'exam', values }, 'exam', () =>
      services.trainingRecords.addExamination(
        id ?? 0,
        { ...values, examiner_id: numberOf(values.examiner_id) },
        memberActor(request.member!),
      ),
    );
  });
};

export default staffTrainingsRoutes;
