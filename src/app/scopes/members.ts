// The members' page scope: the pages and forms of a signed-in member (their bookings, their training).
// One guard for every route registered here (memberGuard: signed in, then a form's CSRF token),
// so a route added here is guarded without a line of its own.
import type { FastifyPluginAsync } from 'fastify';
import { memberGuard } from '../../core/web/pages.js';
import { registerScope, type ScopeOptions } from './index.js';

const memberRoutes: FastifyPluginAsync<ScopeOptions> = async (members, { services, extra }) => {
  members.addHook('preValidation', memberGuard);
  await registerScope(members, 'members', services, extra);
};

export default memberRoutes;
