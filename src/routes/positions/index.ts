import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendBody } from '../../http/send-body.js';
import { listPositions } from '../../schemas/positions.js';
import type { RouteServices } from '../../services/index.js';

const positionsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  // Sent as the cached bytes: the response schema documents them and serialises nothing.
  app.get('/api/positions', { schema: listPositions, config: { auth: 'public' } }, async (_request, reply) =>
    sendBody(reply, await services.positions.answer()),
  );
};

export default positionsRoutes;
