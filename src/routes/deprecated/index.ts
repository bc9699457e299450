import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../services/index.js';
import {
  presentExaminers,
  presentFacilityHolders,
  presentLegacyRoles,
  presentTrainingEndorsements,
  presentVisiting,
} from '../../presenters/deprecated.js';
import { listExaminers, listMasc, listRoles, listS1, listSolo, listVisiting } from '../../schemas/deprecated.js';

/** The endpoints of the deprecated endpoints (docs/api.md), kept for existing integrations; GET /api/users replaces them. */
export default async function deprecatedRoutes(app: FastifyInstance, { services }: { services: AppServices }) {
  const repo = services.repos.users.deprecated;

  // Every answer of these routes, errors included, tells the client where to go instead.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('deprecation', 'true');
    reply.header('link', '</api/users>; rel="successor-version"');
  });

  const config = { auth: 'read' as const };

  app.get('/api/roles', { schema: listRoles, config }, async () => ({
    data: presentLegacyRoles(await repo.roleAssignments()),
  }));

  app.get('/api/endorsements/masc', { schema: listMasc, config }, async () => ({
    data: presentFacilityHolders(await repo.facilityHolders(services.clock())),
  }));

  for (const [type, schema] of [
    ['solo', listSolo],
    ['s1', listS1],
  ] as const) {
    app.get(`/api/endorsements/training/${type}`, { schema, config }, async () => {
      const now = services.clock();
      return { data: presentTrainingEndorsements(type, await repo.trainingEndorsements(type, now), now) };
    });
  }

  app.get('/api/endorsements/examiner', { schema: listExaminers, config }, async () => ({
    data: presentExaminers(await repo.examiners(services.clock())),
  }));

  app.get('/api/endorsements/visiting', { schema: listVisiting, config }, async () => ({
    data: presentVisiting(await repo.visiting(services.clock())),
  }));
}
