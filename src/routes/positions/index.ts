import type { FastifyInstance } from 'fastify';
import { sendBody } from '../../http/send-body.js';
import type { AppServices } from '../../services/index.js';
import { presentPosition } from '../../presenters/positions.js';
import { listPositions } from '../../schemas/positions.js';

export default async function positionsRoutes(app: FastifyInstance, { services }: { services: AppServices }) {
  app.get('/api/positions', { schema: listPositions, config: { auth: 'public' } }, async (_request, reply) => {
    const answer = await services.responses.body('positions', async () => ({
      data: (await services.repos.positions.list()).map(presentPosition),
    }));
    return sendBody(reply, answer);
  });
}
