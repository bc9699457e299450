// Roles in areas and the division, the permission table (contract §17), and the staff scope's guard.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { registerRoleCommands } from './roles.cli.js';
import { RolesService } from './roles.service.js';

// What other features use of this one.
export { revokeAllRoles } from './erasure.js';
export {
  failureOf,
  frameOf,
  lastDayAt,
  notFound,
  noticeOf,
  positionAreas,
  refuse,
  respondToRefusal,
  templateAreas,
  viewerOf,
} from './staff-scope.js';
export {
  NO_FORM,
  dateOf,
  empty,
  errorsOf,
  field,
  formAction,
  formError,
  isoText,
  options,
  staffPage,
  utcText,
  valueOf,
  type FormState,
  type StaffFrame,
} from './staff-frame.view.js';
export type { Area, RolesService, StaffView } from './roles.service.js';
export type { RoleHeld } from './roles.repository.js';
export { openTraining } from './predicates.js';

export { staffGuard } from './staff-scope.js';

function services(deps: ServiceDeps) {
  return { roles: new RolesService(deps) };
}

export const roles: Feature<ReturnType<typeof services>> = {
  services,
  cli: [registerRoleCommands],
};
