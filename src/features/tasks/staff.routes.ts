// The tasks pages (contract §21): GET /staff/tasks with the complete, decline and withdraw forms
// (POST /staff/tasks/{id}/close), and the request page of a training (GET/POST
// /staff/trainings/{id}/tasks), whose form the training page shows too. Every change goes through
// TasksService, the API's own service.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConflictError, ForbiddenError } from '../../core/domain/errors.js';
import { formFailure, formValues, pathFailed } from '../../core/web/forms.js';
import { memberActor, sendPage } from '../../core/web/pages.js';
import { personName } from '../members/domain/names.js';
import type { RouteServices } from '../../app/services.js';
import { failureOf, type FormState, frameOf, NO_FORM, notFound, noticeOf, respondToRefusal, viewerOf } from '../roles/index.js';
import { CLOSING_STATUSES, type ClosingStatus } from './domain.js';
import { closeTaskForm, retryHubForm, requestForm, requestPage as requestSchema, tasksPage as tasksSchema } from './task-pages.schema.js';
import { tasksPage } from './views/tasks-page.js';
import { requestPage } from './views/training-tasks.js';

const form = { attachValidation: true } as const;
const NOTICES = {
  completed: 'Task completed: its creator was told.',
  declined: 'Task declined: its creator was told.',
  withdrawn: 'Task withdrawn.',
  retried: "The request is sent to the division's hub again.",
};
const isClosing = (s: string): s is ClosingStatus => (CLOSING_STATUSES as readonly string[]).includes(s);

const taskPagesRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  async function sendList(request: FastifyRequest, reply: FastifyReply, status: number, state: FormState, done = '') {
    const viewer = request.member!.cid;
    const tasks = await services.taskPages.mine(viewer);
    return sendPage(reply, status, tasksPage({ ...frameOf(request, services), viewer, tasks, state, notice: noticeOf(done, NOTICES) }));
  }

  async function sendRequest(request: FastifyRequest, reply: FastifyReply, id: number, status: number, state: FormState) {
    const view = viewerOf(request);
    const training = await services.taskPages.training(view.member, id);
    if (!training) return notFound(request, reply, 'training');
    const tasks = await services.taskPages.ofTraining(view.member, training);
    const student = personName(await services.taskPages.names([training.user_id]), training.user_id);
    const page = requestPage({ ...frameOf(request, services), trainingId: id, viewer: view.member.cid, tasks, state, student });
    return sendPage(reply, status, page);
  }

  app.get('/staff/tasks', { schema: tasksSchema }, (request, reply) => sendList(request, reply, 200, NO_FORM, request.query.done));

  app.post('/staff/tasks/:id/close', { schema: closeTaskForm, ...form }, async (request, reply) => {
    const failed = formFailure(request);
    if (failed?.part === 'params') return notFound(request, reply, 'task');
    const { id } = request.params;
    const state = { form: `task-${id}`, values: formValues(request.body) };
    if (failed) return sendList(request, reply, 422, { ...state, errors: failed.errors });
    const { status, closed_message } = request.body;
    if (!isClosing(status))
      return sendList(request, reply, 422, { ...state, errors: { status: ['Choose complete, decline or withdraw.'] } });
    try {
      const cid = request.member!.cid;
      const task = await services.tasks.close(id, { status, closed_message, actor_id: cid }, memberActor(request.member!));
      // A completed solo request opens the solo form, prefilled, on the student's page (§21).
      if (task.type === 'solo_endorsement' && status === 'completed')
        return await reply.redirect(`/staff/users/${task.subject_user_id}?type=solo#issue-title`, 303);
      return await reply.redirect(`/staff/tasks?done=${status}`, 303);
    } catch (err) {
      const errors = failureOf(err);
      if (errors) return sendList(request, reply, err instanceof ConflictError ? 409 : 422, { ...state, errors });
      return respondToRefusal(request, reply, err, 'task');
    }
  });

  // A request the division's hub refused after the task's completion, sent again by its assignee or creator.
  app.post('/staff/tasks/:id/hub-retry', { schema: retryHubForm, ...form }, async (request, reply) => {
    if (pathFailed(request)) return notFound(request, reply, 'task');
    const { id } = request.params;
    const cid = request.member!.cid;
    const state = { form: `task-${id}`, values: {} };
    try {
      const task = await services.tasks.get(id);
      if (task.assignee_id !== cid && task.creator_id !== cid)
        throw new ForbiddenError("A request to the division's hub is sent again by the task's assignee or creator.");
      if (!services.divisionApi) throw new ConflictError("No division's hub is configured (DIVISION_API).");
      await services.divisionApi.retryRefused({ task: id });
      return await reply.redirect(`/staff/tasks?done=retried#task-${id}`, 303);
    } catch (err) {
      if (err instanceof ConflictError) return sendList(request, reply, 409, { ...state, errors: { form: [err.message] } });
      return respondToRefusal(request, reply, err, 'task');
    }
  });

  app.get('/staff/trainings/:id/tasks', { schema: requestSchema, ...form }, (request, reply) => {
    if (pathFailed(request)) return notFound(request, reply, 'training');
    const { type, rating } = request.query;
    const prefilled = type === '' ? NO_FORM : { form: 'task', values: { type, rating }, errors: {} };
    return sendRequest(request, reply, request.params.id, 200, prefilled);
  });

  app.post('/staff/trainings/:id/tasks', { schema: requestForm, ...form }, async (request, reply) => {
    const failed = formFailure(request);
    if (failed?.part === 'params') return notFound(request, reply, 'training');
    const { id } = request.params;
    const b = request.body;
    const state = { form: 'task', values: formValues(b) };
    if (failed) return sendRequest(request, reply, id, 422, { ...state, errors: failed.errors });
    const view = viewerOf(request);
    const training = await services.taskPages.training(view.member, id);
    if (!training) return notFound(request, reply, 'training');
    const assignee = /^[0-9]{1,9}$/.test(b.assignee_id) ? Number(b.assignee_id) : null;
    if (assignee === null) return sendRequest(request, reply, id, 422, { ...state, errors: { assignee_id: ['Choose whom to ask.'] } });
    try {
      await services.tasks.create(
        {
          type: b.type,
          subject_user_id: training.user_id,
          training_id: id,
          rating: b.rating === '' ? null : b.rating,
          message: b.message === '' ? null : b.message,
          assignee_id: assignee,
          creator_id: view.member.cid,
          theory_exam_passed: b.theory_exam_passed,
        },
        memberActor(request.member!),
      );
      return await reply.redirect(`/staff/trainings/${id}?done=task#tasks-title`, 303);
    } catch (err) {
      const errors = failureOf(err);
      if (errors) return sendRequest(request, reply, id, 422, { ...state, errors });
      return respondToRefusal(request, reply, err, 'training');
    }
  });
};

export default taskPagesRoutes;
