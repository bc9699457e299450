import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../services/index.js';
import { presentPosition } from '../../presenters/positions.js';
import { listPositions } from './schema.js';

export default async function positionsRoutes(app: FastifyInstance, { services }: { services: AppServices }) {
  app.get('/api/positions', { schema: listPositions, config: { auth: 'public' } }, (_request, reply) =>
    services.responses.send(reply, 'positions', async () => ({
      data: (await services.repos.positions.list()).map(presentPosition),
    })),
  );
}
