// PATCH and DELETE /api/trainings/{id}/reports/{rid} (contract §20): through TrainingReportsService,
// the same service as the staff pages' edit, publish and delete forms.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { keyActor } from '../api-keys/index.js';
import type { RouteServices } from '../../app/services.js';
import { deleteReport, REPORT_PATH, updateReport } from './reports.schema.js';

const flagOf = (v: boolean | string | undefined): boolean | undefined =>
  v === undefined ? undefined : v === true || v === 'true' || v === '1' || v === 'on';

const reportsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.patch(REPORT_PATH, { schema: updateReport, config: { auth: 'edit' } }, (request) => {
    const b = request.body;
    const draft = flagOf(b.draft);
    return services.trainingReports.update(
      request.params.id,
      request.params.rid,
      {
        ...(b.report_date !== undefined ? { report_date: b.report_date } : {}),
        ...(b.content !== undefined ? { content: b.content } : {}),
        ...(b.improve !== undefined ? { improve: b.improve } : {}),
        ...(b.position !== undefined ? { position: b.position } : {}),
        ...(draft !== undefined ? { draft } : {}),
      },
      keyActor(request),
    );
  });

  app.delete(REPORT_PATH, { schema: deleteReport, config: { auth: 'edit' } }, async (request, reply) => {
    await services.trainingReports.remove(request.params.id, request.params.rid, keyActor(request));
    return reply.code(204).send(null);
  });
};

export default reportsRoutes;
