// The examinations of a training through the API (contract §18, §20): planned or recorded, changed, cancelled.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { keyActor } from '../api-keys/index.js';
import type { RouteServices } from '../../app/services.js';
import { createExamination, deleteExamination, EXAMINATION_PATH, updateExamination } from './examinations.schema.js';
import { TRAINING_ID_PATH } from './trainings.schema.js';

// A form-like body may give one CID or several, as numbers or text.
const cids = (v: number | string | Array<number | string> | undefined) =>
  v === undefined ? undefined : (Array.isArray(v) ? v : [v]).map(Number);

const examinationsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.post(`${TRAINING_ID_PATH}/examinations`, { schema: createExamination, config: { auth: 'edit' } }, async (request, reply) => {
    const b = request.body;
    const examiners = cids(b.examiners);
    const exam = await services.trainingExaminations.add(
      request.params.id,
      {
        examination_date: b.examination_date,
        start: b.start ?? null,
        position: b.position,
        ...(examiners ? { examiners } : {}),
        ...(b.examiner_id !== undefined ? { examiner_id: Number(b.examiner_id) } : {}),
        result: b.result ?? null,
      },
      keyActor(request),
    );
    return reply.code(201).header('location', `/api/trainings/${request.params.id}`).send(exam);
  });

  app.patch(EXAMINATION_PATH, { schema: updateExamination, config: { auth: 'edit' } }, (request) => {
    const { examiners, examiner_id, ...rest } = request.body;
    const list = cids(examiners);
    return services.trainingExaminations.change(
      request.params.id,
      request.params.xid,
      { ...rest, ...(list ? { examiners: list } : {}), ...(examiner_id !== undefined ? { examiner_id: Number(examiner_id) } : {}) },
      keyActor(request),
    );
  });

  app.delete(EXAMINATION_PATH, { schema: deleteExamination, config: { auth: 'edit' } }, async (request, reply) => {
    await services.trainingExaminations.cancel(request.params.id, request.params.xid, keyActor(request));
    return reply.code(204).send(null);
  });
};

export default examinationsRoutes;
