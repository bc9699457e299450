import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendBody } from '../../http/send-body.js';
import { listOnline } from '../../schemas/online.js';
import { serialiseWithEtag } from '../../services/cached-body.js';
import type { RouteServices } from '../../services/index.js';

const onlineRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  // Not cached: it changes with every read of the feed, and is a handful of rows.
  app.get('/api/online', { schema: listOnline, config: { auth: 'public' } }, async (request, reply) => {
    sendBody(reply, serialiseWithEtag(await services.online.list(request.apiKey !== null)));
  });
};

export default onlineRoutes;
