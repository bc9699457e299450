// GET /api/sweatbox (read key) and DELETE /api/sweatbox/{id} (edit key) (contract §23).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { keyActor } from '../api-keys/index.js';
import { parseWindowBound } from './domain.js';
import { presentSession } from './sweatbox.presenter.js';
import { deleteSweatbox, listSweatbox } from './sweatbox.schema.js';
import type { RouteServices } from '../../app/services.js';

const sweatboxRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/sweatbox', { schema: listSweatbox, config: { auth: 'read' } }, async (request) => {
    const { from, to } = request.query;
    const start = from === undefined ? services.clock() : parseWindowBound(from, 'from')!;
    const end = to === undefined ? Number.MAX_SAFE_INTEGER : parseWindowBound(to, 'to')!;
    return { data: (await services.sweatbox.list(start, end)).map(presentSession) };
  });

  app.delete('/api/sweatbox/:id', { schema: deleteSweatbox, config: { auth: 'edit' } }, async (request, reply) => {
    await services.sweatbox.remove(request.params.id, keyActor(request));
    return reply.code(204).send(null);
  });
};

export default sweatboxRoutes;
