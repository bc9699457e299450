// The staff pages: the overview, finding a person and everything about them, the active endorsements.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import type { ActivityService } from '../activity/index.js';
import peopleRoutes from './people.routes.js';
import { StaffService } from './staff.service.js';
import staffRoutes from './staff.routes.js';

// What other features use of this one.
export type { StaffService } from './staff.service.js';
export type { Overview, Student } from './staff.types.js';
export { studentsTable } from './views/students.js';

function services(deps: ServiceDeps, { activity }: { activity: ActivityService }) {
  return {
    /** What the staff pages read (their changes go through positions, endorsements and roles). */
    staff: new StaffService({ ...deps, activity }),
  };
}

export const staff: Feature<ReturnType<typeof services>, { activity: ActivityService }> = {
  services,
  routes: { staff: [staffRoutes, peopleRoutes] },
};
