// Trainings from application to completion: the API, the student's pages and the staff's (contract §18).
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { TrainingApplicationsService } from './applications.service.js';
import { TrainingAttachmentsService } from './attachments.service.js';
import attachmentsRoutes from './attachments.routes.js';
import { TrainingDeskService } from './desk.service.js';
import { trainingInterestWorker } from './interest.worker.js';
import trainingPagesRoutes from './member.routes.js';
import { TrainingRecordsService } from './records.service.js';
import staffTrainingsRoutes from './staff.routes.js';
import staffAttachmentRoutes from './staff-attachments.routes.js';
import memberAttachmentRoutes from './member-attachments.routes.js';
import { TrainingsService } from './trainings.service.js';
import trainingsRoutes from './trainings.routes.js';

// What other features use of this one.
export type { TrainingRecord } from './trainings.repository.js';
export { presentReport } from './trainings.presenter.js';
export { sniffType } from './attachments.service.js';
export { attachmentName } from './attachments.domain.js';

function services(deps: ServiceDeps) {
  const trainings = new TrainingsService(deps);
  return {
    /** Trainings by staff, their reports and examinations, and the student's side (contract §18). */
    trainings,
    trainingRecords: new TrainingRecordsService({ ...deps, trainings }),
    applications: new TrainingApplicationsService({ ...deps, trainings }),
    /** Files on reports and examinations (contract §20). */
    trainingAttachments: new TrainingAttachmentsService({ ...deps, trainings }),
    /** What the staff training pages read. */
    trainingDesk: new TrainingDeskService(deps),
  };
}

export const trainings: Feature<ReturnType<typeof services>> = {
  services,
  routes: {
    api: [trainingsRoutes, attachmentsRoutes],
    members: [trainingPagesRoutes, memberAttachmentRoutes],
    staff: [staffTrainingsRoutes, staffAttachmentRoutes],
  },
  workers: (_deps, { applications }) => [trainingInterestWorker({ applications })],
};
