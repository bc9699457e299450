// GET /api/feedback?area=&controller= (read key) (contract §23): no sender, no internal comments.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isoMicros } from '../../core/domain/time.js';
import { listFeedback } from './feedback.schema.js';
import type { RouteServices } from '../../app/services.js';

const feedbackApiRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/feedback', { schema: listFeedback, config: { auth: 'read' } }, async (request) => {
    const { area, controller } = request.query;
    const rows = await services.feedback.forApi({
      ...(area === undefined ? {} : { area }),
      ...(controller === undefined ? {} : { controller }),
    });
    return {
      data: rows.map((f) => ({
        id: f.id,
        controller: f.controller,
        position: f.callsign,
        area: f.area,
        text: f.text,
        actioned: f.actioned === 1,
        created_at: isoMicros(f.created_at),
      })),
    };
  });
};

export default feedbackApiRoutes;
