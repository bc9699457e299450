import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listPositions } from '../../schemas/positions.js';
import type { RouteServices } from '../../services/index.js';

const positionsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/positions', { schema: listPositions, config: { auth: 'public' } }, () => services.positions.list());
};

export default positionsRoutes;
