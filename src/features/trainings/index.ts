// Trainings from application to completion: the API, the student's pages and the staff's (contract §18).
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { TrainingApplicationsService } from './applications.service.js';
import { TrainingAttachmentsService } from './attachments.service.js';
import attachmentsRoutes from './attachments.routes.js';
import { TrainingDeskService } from './desk.service.js';
import { trainingInterestWorker } from './interest.worker.js';
import { TrainingLinksService } from './links.service.js';
import trainingLinkRoutes from './link.routes.js';
import trainingPagesRoutes from './member.routes.js';
import { TrainingExaminationsService } from './examinations.service.js';
import { TrainingRecordsService } from './records.service.js';
import { TrainingReportsService } from './reports.service.js';
import reportsRoutes from './reports.routes.js';
import reportPagesRoutes from './report-pages.routes.js';
import { ReportTemplatesService } from './templates.service.js';
import templatesRoutes from './templates.routes.js';
import staffTrainingsRoutes from './staff.routes.js';
import staffAttachmentRoutes from './staff-attachments.routes.js';
import memberAttachmentRoutes from './member-attachments.routes.js';
import { StudentTrainingsService } from './student.service.js';
import staffExamsRoutes from './exams.routes.js';
import { TrainingsService } from './trainings.service.js';
import trainingsRoutes from './trainings.routes.js';
import examinationsRoutes from './examinations.routes.js';

// What other features use of this one.
export { closeTrainingsOnErasure, ERASURE_REASON } from './erasure.js';
export type { TrainingRecord } from './trainings.repository.js';
export { presentReport } from './trainings.presenter.js';
export { sniffType } from './attachments.service.js';
export { attachmentName } from './attachments.domain.js';
export type { StudentTrainings, StudentTrainingsService } from './student.service.js';
export type { MyTraining } from './applications.service.js';
export type { ExaminerRow } from './history.repository.js';
export { isPlanned, openTrainingSummary, pastTrainingsSection, resultText } from './views/student-training.js';

function services(deps: ServiceDeps) {
  const trainings = new TrainingsService(deps);
  const trainingRecords = new TrainingRecordsService({ ...deps, trainings });
  const applications = new TrainingApplicationsService({ ...deps, trainings });
  const trainingExaminations = new TrainingExaminationsService({ ...deps, trainings });
  const trainingAttachments = new TrainingAttachmentsService({ ...deps, trainings });
  return {
    /** Trainings by staff, their reports and examinations, and the student's side (contract §18). */
    trainings,
    trainingRecords,
    /** One-time links to write one report, or grade one examination, of a training (§20). */
    trainingLinks: new TrainingLinksService({
      ...deps,
      trainings,
      records: trainingRecords,
      examinations: trainingExaminations,
      attachments: trainingAttachments,
    }),
    /** Examinations planned, then graded (contract §20). */
    trainingExaminations,
    /** Reports edited, published and deleted, and their templates (contract §20). */
    trainingReports: new TrainingReportsService({ ...deps, trainings }),
    reportTemplates: new ReportTemplatesService(deps),
    applications,
    /** Everything a member sees of their own trainings, open and past (contract §20). */
    studentTrainings: new StudentTrainingsService({ ...deps, applications }),
    /** Files on reports and examinations (contract §20). */
    trainingAttachments,
    /** What the staff training pages read. */
    trainingDesk: new TrainingDeskService(deps),
  };
}

export const trainings: Feature<ReturnType<typeof services>> = {
  services,
  routes: {
    api: [trainingsRoutes, reportsRoutes, examinationsRoutes, attachmentsRoutes],
    members: [trainingPagesRoutes, trainingLinkRoutes, memberAttachmentRoutes],
    staff: [staffTrainingsRoutes, reportPagesRoutes, templatesRoutes, staffExamsRoutes, staffAttachmentRoutes],
  },
  workers: (_deps, { applications }) => [trainingInterestWorker({ applications })],
};
