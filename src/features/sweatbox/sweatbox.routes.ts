// GET /api/sweatbox (read key) (contract §23). Sessions are changed on the staff pages only.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { parseWindowBound } from './domain.js';
import { presentSession } from './sweatbox.presenter.js';
import { listSweatbox } from './sweatbox.schema.js';
import type { RouteServices } from '../../app/services.js';

const sweatboxRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/sweatbox', { schema: listSweatbox, config: { auth: 'read' } }, async (request) => {
    const { from, to } = request.query;
    const start = from === undefined ? services.clock() : parseWindowBound(from, 'from')!;
    const end = to === undefined ? Number.MAX_SAFE_INTEGER : parseWindowBound(to, 'to')!;
    return { data: (await services.sweatbox.list(start, end)).map(presentSession) };
  });
};

export default sweatboxRoutes;
