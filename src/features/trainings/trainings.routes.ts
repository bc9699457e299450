import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ValidationError } from '../../core/domain/errors.js';
import { keyActor } from '../api-keys/index.js';
import type { RouteServices } from '../../app/services.js';
import { createReport, createTraining, getTraining, listTrainings, TRAINING_ID_PATH, updateTraining } from './trainings.schema.js';

// JSON and form bodies alike: a form sends numbers and checkboxes as strings, one value or many.
const listOf = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const flagOf = (v: boolean | string | undefined): boolean | undefined =>
  v === undefined ? undefined : v === true || v === 'true' || v === '1' || v === 'on';

/** A whole number within [min, max] from a JSON number or a form's text; a 422 naming the field otherwise. */
export function integerOf(field: string, v: number | string | null | undefined, min: number, max: number): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new ValidationError({ [field]: [`The ${field} field must be from ${min} to ${max}.`] });
  return n;
}

const trainingsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/trainings', { schema: listTrainings, config: { auth: 'read' } }, async (request) => {
    const q = request.query;
    return {
      data: await services.trainings.list({
        ...(q.area !== undefined ? { area: q.area } : {}),
        ...(q.status !== undefined ? { status: q.status } : {}),
        ...(q.user_id !== undefined ? { user_id: q.user_id } : {}),
      }),
    };
  });

  app.get(TRAINING_ID_PATH, { schema: getTraining, config: { auth: 'read' } }, (request) => services.trainings.detail(request.params.id));

  app.post('/api/trainings', { schema: createTraining, config: { auth: 'edit' } }, async (request, reply) => {
    const b = request.body;
    const status = integerOf('status', b.status, 0, 3);
    const experience = integerOf('experience', b.experience, 1, 6);
    const created = await services.trainings.create(
      {
        user_id: Number(b.user_id),
        area: b.area,
        ...(b.type !== undefined ? { type: b.type.trim() } : {}),
        ...(status !== undefined ? { status } : {}),
        ratings: listOf(b.ratings),
        motivation: b.motivation ?? null,
        experience: experience ?? null,
        english_only: flagOf(b.english_only) ?? false,
      },
      keyActor(request),
    );
    return reply.code(201).header('location', `/api/trainings/${created.id}`).send(created);
  });

  app.patch(TRAINING_ID_PATH, { schema: updateTraining, config: { auth: 'edit' } }, (request) => {
    const b = request.body;
    const status = integerOf('status', b.status, -4, 3);
    const paused = flagOf(b.paused);
    return services.trainings.update(
      request.params.id,
      {
        ...(status !== undefined ? { status } : {}),
        ...(b.type !== undefined ? { type: b.type.trim() } : {}),
        ...(b.mentors !== undefined ? { mentors: listOf(b.mentors).map(Number) } : {}),
        ...(paused !== undefined ? { paused } : {}),
        ...(b.closed_reason !== undefined ? { closed_reason: b.closed_reason } : {}),
      },
      keyActor(request),
    );
  });

  app.post(`${TRAINING_ID_PATH}/reports`, { schema: createReport, config: { auth: 'edit' } }, async (request, reply) => {
    const b = request.body;
    const report = await services.trainingRecords.addReport(
      request.params.id,
      {
        report_date: b.report_date.trim(),
        content: b.content,
        improve: b.improve ?? null,
        position: b.position?.trim() || null,
        draft: flagOf(b.draft) ?? false,
      },
      keyActor(request),
    );
    return reply.code(201).header('location', `/api/trainings/${request.params.id}`).send(report);
  });
};

export default trainingsRoutes;
