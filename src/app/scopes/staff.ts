// The staff page scope (contract §17): one guard for every route registered in it (staffGuard:
// signed in, then a form's CSRF token, then a role in an area, else 403 saying why).
import type { FastifyPluginAsync } from 'fastify';
import { staffGuard } from '../../features/roles/index.js';
import { registerScope, type ScopeOptions } from './index.js';

const staffRoutes: FastifyPluginAsync<ScopeOptions> = async (staff, { services, extra }) => {
  staff.decorateRequest('staffViewer', null);
  staff.addHook('preValidation', staffGuard(services));
  await registerScope(staff, 'staff', services, extra);
};

export default staffRoutes;
