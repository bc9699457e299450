// GET /staff/exams (contract §20): the examinations overview of the staff pages.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sendPage } from '../../core/web/pages.js';
import { frameOf, viewerOf } from '../roles/index.js';
import { staffExamsPage } from './staff-pages.schema.js';
import { examsPage } from './views/exams-list.js';
import type { RouteServices } from '../../app/services.js';

const staffExamsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/staff/exams', { schema: staffExamsPage }, async (request, reply) => {
    const list = await services.trainingDesk.exams(viewerOf(request));
    return sendPage(reply, 200, examsPage({ ...frameOf(request, services), list }));
  });
};

export default staffExamsRoutes;
