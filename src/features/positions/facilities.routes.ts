// The facilities API (contract §22): GET /api/facilities, PUT /api/facilities/{name} (201 new, 200 changed).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { keyActor } from '../api-keys/index.js';
import type { RouteServices } from '../../app/services.js';
import { listFacilities, putFacility } from './facilities.schema.js';

const facilitiesRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/facilities', { schema: listFacilities, config: { auth: 'read' } }, async () => ({
    data: await services.facilities.list(),
  }));

  app.put('/api/facilities/:name', { schema: putFacility, config: { auth: 'edit' } }, async (request, reply) => {
    const { tier, description } = request.body;
    const made = await services.facilities.put(
      request.params.name,
      { tier, ...(description !== undefined ? { description } : {}) },
      keyActor(request),
    );
    return reply.code(made.created ? 201 : 200).send(made.facility);
  });
};

export default facilitiesRoutes;
