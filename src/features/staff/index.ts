// Staff: roles in areas and the permission table (contract §17), and the staff pages.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import type { ActivityService } from '../activity/index.js';
import peopleRoutes from './people.routes.js';
import { registerRoleCommands } from './roles.cli.js';
import { Roles } from './roles.service.js';
import { StaffDesk } from './staff.service.js';
import staffRoutes from './staff.routes.js';

export { staffGuard } from './common.js';

function services(deps: ServiceDeps, { activity }: { activity: ActivityService }) {
  return {
    roles: new Roles(deps),
    /** What the staff pages read (their changes go through positions, endorsements and roles). */
    staff: new StaffDesk({ ...deps, activity }),
  };
}

export const staff: Feature<ReturnType<typeof services>, { activity: ActivityService }> = {
  services,
  routes: { staff: [staffRoutes, peopleRoutes] },
  cli: [registerRoleCommands],
};
