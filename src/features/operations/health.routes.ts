import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getHealth } from './health.schema.js';
import type { RouteServices } from '../../app/services.js';

const healthRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/health', { schema: getHealth, logLevel: 'warn' }, async (_request, reply) => {
    if (await services.health.databaseReachable()) return { status: 'ok' as const };
    return reply.code(503).send({ status: 'unavailable', message: 'Database unreachable' });
  });
};

export default healthRoutes;
