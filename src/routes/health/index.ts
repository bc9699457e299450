import { Type } from 'typebox';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../services/index.js';

export default async function healthRoutes(app: FastifyInstance, { services }: { services: AppServices }) {
  app.get(
    '/health',
    {
      schema: {
        tags: ['operations'],
        summary: 'Liveness and database reachability',
        response: { 200: Type.Object({ status: Type.Literal('ok') }), 503: Type.Object({ status: Type.String(), message: Type.String() }) },
      },
      logLevel: 'warn',
    },
    async (_request, reply) => {
      try {
        await services.repos.health.ping();
        return { status: 'ok' as const };
      } catch {
        return reply.code(503).send({ status: 'unavailable', message: 'Database unreachable' });
      }
    },
  );
}
