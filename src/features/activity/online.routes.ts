import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listOnline } from './online.schema.js';
import type { RouteServices } from '../../app/services.js';

const onlineRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/online', { schema: listOnline, config: { auth: 'public' } }, (request) => services.online.list(request.apiKey !== null));
};

export default onlineRoutes;
