// Roles in areas and the division, the permission table (contract §17), and the staff scope's guard.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { registerRoleCommands } from './roles.cli.js';
import { Roles } from './roles.service.js';

export { staffGuard } from './staff-scope.js';

function services(deps: ServiceDeps) {
  return { roles: new Roles(deps) };
}

export const roles: Feature<ReturnType<typeof services>> = {
  services,
  cli: [registerRoleCommands],
};
