// The member's home, GET /my (contract §20): what a member sees first after signing in, read from
// the features it shows (trainings, bookings, endorsements, activity, the staff overview).
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import type { ActivityService } from '../activity/index.js';
import type { RolesService } from '../roles/index.js';
import type { StaffService } from '../staff/index.js';
import type { StudentTrainingsService } from '../trainings/index.js';
import type { VotesService } from '../votes/index.js';
import type { TaskPagesService } from '../tasks/index.js';
import { HomeService } from './home.service.js';
import homeRoutes from './home.routes.js';

interface Needs {
  activity: ActivityService;
  roles: RolesService;
  staff: StaffService;
  studentTrainings: StudentTrainingsService;
  votes: VotesService;
  taskPages: TaskPagesService;
}

function services(deps: ServiceDeps, needs: Needs) {
  return {
    /** The member's home page (GET /my). */
    home: new HomeService({ ...deps, ...needs }),
  };
}

export const home: Feature<ReturnType<typeof services>, Needs> = {
  services,
  routes: { members: [homeRoutes] },
};
