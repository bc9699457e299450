// The members' page scope: the pages and forms of a signed-in member (their bookings, their training).
// One guard for every route registered here (memberGuard: signed in, then a form's CSRF token),
// so a route added here is guarded without a line of its own.
import type { FastifyPluginAsync } from 'fastify';
import { memberGuard } from '../../core/web/pages.js';
import memberBookingsRoutes from '../../features/bookings/member.routes.js';
import type { ScopeOptions } from './index.js';
import trainingPagesRoutes from '../../features/trainings/member.routes.js';

const memberRoutes: FastifyPluginAsync<ScopeOptions> = async (members, { services, extra }) => {
  members.addHook('preValidation', memberGuard);
  await members.register(memberBookingsRoutes, { services });
  await members.register(trainingPagesRoutes, { services });
  if (extra) await members.register(extra);
};

export default memberRoutes;
