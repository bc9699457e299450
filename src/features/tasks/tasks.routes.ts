// The tasks API (contract §21): GET /api/tasks, GET /api/tasks/{id}, POST /api/tasks (a key acting
// for the member named in creator_id) and PATCH /api/tasks/{id} (closing, by the actor_id named).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { keyActor } from '../api-keys/index.js';
import type { RouteServices } from '../../app/services.js';
import { closeTask, createTask, getTask, listTasks } from './tasks.schema.js';

const numberOf = (v: number | string | null | undefined): number | null => (v === undefined || v === null || v === '' ? null : Number(v));
const flagOf = (v: boolean | string | undefined): boolean => v === true || v === 'true' || v === '1' || v === 'on';

const tasksRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/tasks', { schema: listTasks, config: { auth: 'read' } }, async (request) => {
    const q = request.query;
    return {
      data: await services.tasks.list({
        ...(q.assignee_id !== undefined ? { assignee_id: q.assignee_id } : {}),
        ...(q.status !== undefined ? { status: q.status } : {}),
        ...(q.training_id !== undefined ? { training_id: q.training_id } : {}),
      }),
    };
  });

  app.get('/api/tasks/:id', { schema: getTask, config: { auth: 'read' } }, (request) => services.tasks.get(request.params.id));

  app.post('/api/tasks', { schema: createTask, config: { auth: 'edit' } }, async (request, reply) => {
    const b = request.body;
    const task = await services.tasks.create(
      {
        type: b.type.trim(),
        subject_user_id: Number(b.subject_user_id),
        training_id: numberOf(b.training_id),
        rating: b.rating ?? null,
        message: b.message ?? null,
        assignee_id: Number(b.assignee_id),
        creator_id: Number(b.creator_id),
        theory_exam_passed: flagOf(b.theory_exam_passed),
      },
      keyActor(request),
    );
    return reply.code(201).header('location', `/api/tasks/${task.id}`).send(task);
  });

  app.patch('/api/tasks/:id', { schema: closeTask, config: { auth: 'edit' } }, (request) => {
    const b = request.body;
    return services.tasks.close(
      request.params.id,
      { status: b.status, closed_message: b.closed_message ?? null, actor_id: Number(b.actor_id) },
      keyActor(request),
    );
  });
};

export default tasksRoutes;
