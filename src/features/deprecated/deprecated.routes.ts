import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { listExaminers, listMasc, listRoles, listS1, listSolo, listVisiting } from './deprecated.schema.js';
import type { RouteServices } from '../../app/services.js';

/** The endpoints of the deprecated endpoints (docs/api.md), kept for existing integrations; GET /api/users replaces them. */
const deprecatedRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const lists = services.deprecated;

  // Every response of these routes, errors included, tells the client where to go instead.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('deprecation', 'true');
    reply.header('link', '</api/users>; rel="successor-version"');
  });

  const config = { auth: 'read' as const };

  app.get('/api/roles', { schema: listRoles, config }, async () => ({ data: await lists.roles() }));
  app.get('/api/endorsements/masc', { schema: listMasc, config }, async () => ({ data: await lists.facilityHolders() }));
  app.get('/api/endorsements/training/solo', { schema: listSolo, config }, async () => ({
    data: await lists.trainingEndorsements('solo'),
  }));
  app.get('/api/endorsements/training/s1', { schema: listS1, config }, async () => ({ data: await lists.trainingEndorsements('s1') }));
  app.get('/api/endorsements/examiner', { schema: listExaminers, config }, async () => ({ data: await lists.examiners() }));
  app.get('/api/endorsements/visiting', { schema: listVisiting, config }, async () => ({ data: await lists.visiting() }));
};

export default deprecatedRoutes;
