// Trainings from application to completion: the API, the student's pages and the staff's (contract §18).
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { TrainingApplications } from './applications.service.js';
import { TrainingDesk } from './desk.service.js';
import { trainingInterestWorker } from './interest.worker.js';
import trainingPagesRoutes from './member.routes.js';
import { TrainingRecords } from './records.service.js';
import staffTrainingsRoutes from './staff.routes.js';
import { Trainings } from './trainings.service.js';
import trainingsRoutes from './trainings.routes.js';

function services(deps: ServiceDeps) {
  const trainings = new Trainings(deps);
  return {
    /** Trainings by staff, their reports and examinations, and the student's side (contract §18). */
    trainings,
    trainingRecords: new TrainingRecords({ ...deps, trainings }),
    applications: new TrainingApplications({ ...deps, trainings }),
    /** What the staff training pages read. */
    trainingDesk: new TrainingDesk(deps),
  };
}

export const trainings: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [trainingsRoutes], members: [trainingPagesRoutes], staff: [staffTrainingsRoutes] },
  workers: (_deps, { applications }) => [trainingInterestWorker({ applications })],
};
