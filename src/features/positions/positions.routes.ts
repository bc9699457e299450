import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { createPosition, deletePosition, listPositions, POSITION_PATH, updatePosition } from './positions.schema.js';
import type { RouteServices } from '../../app/services.js';
import { keyActor } from '../api-keys/api-keys.plugin.js';

const positionsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/positions', { schema: listPositions, config: { auth: 'public' } }, () => services.positions.list());

  app.post('/api/positions', { schema: createPosition, config: { auth: 'edit' } }, async (request, reply) => {
    const created = await services.positions.create(request.body, keyActor(request));
    return reply.code(201).header('location', `/api/positions/${created.callsign}`).send(created);
  });

  app.patch(POSITION_PATH, { schema: updatePosition, config: { auth: 'edit' } }, (request) =>
    services.positions.update(request.params.callsign, request.body, keyActor(request)),
  );

  app.delete(POSITION_PATH, { schema: deletePosition, config: { auth: 'edit' } }, async (request, reply) => {
    await services.positions.remove(request.params.callsign, keyActor(request));
    return reply.code(204).send(null);
  });
};

export default positionsRoutes;
