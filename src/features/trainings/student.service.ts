// Everything a member sees of their own trainings (contract §20): the open one with its place in the
// queue (TrainingApplicationsService.mine), every past one with the reports and examinations the
// student saw while it was open, and the names of everyone these show — read set-based, one query
// per relation for all of them.
import { presentTrainingDetail } from './trainings.presenter.js';
import { studentSees } from './attachments.domain.js';
import type { TrainingDetail } from './trainings.schema.js';
import type { MyTraining, TrainingApplicationsService } from './applications.service.js';
import type { Deps } from '../../app/deps.js';

export interface StudentTrainings {
  /** The open training, with the queue's place and estimate; null when none is open. */
  open: MyTraining | null;
  /** Closed and completed trainings, newest first, with their published reports and examinations. */
  past: TrainingDetail[];
  /** CID -> "First Last" of the mentors, report authors and examiners shown. */
  names: ReadonlyMap<number, string>;
}

function grouped<T extends { training_id: number }>(rows: readonly T[]): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const r of rows) out.set(r.training_id, [...(out.get(r.training_id) ?? []), r]);
  return out;
}

export class StudentTrainingsService {
  constructor(private readonly deps: Deps<'repos'> & { applications: TrainingApplicationsService }) {}

  async of(cid: number): Promise<StudentTrainings> {
    const repos = this.deps.repos;
    const [latest, all] = await Promise.all([this.deps.applications.mine(cid), repos.trainings.list({ user_id: cid })]);
    const open = latest !== null && latest.training.status >= 0 ? latest : null;
    const closed = all.filter((t) => t.status < 0).sort((a, b) => (b.closed_at ?? 0) - (a.closed_at ?? 0) || b.id - a.id);
    const ids = closed.map((t) => t.id);
    const [reports, examinations, attachments] = await Promise.all([
      repos.trainingHistory.publishedReports(ids),
      repos.trainingHistory.examinations(ids),
      repos.attachments.ofTrainings(ids),
    ]);
    const [reportsOf, examinationsOf] = [grouped(reports), grouped(examinations)];
    const filesOf = grouped(attachments.filter((a) => studentSees(cid, a)));
    const past = closed.map((t) =>
      presentTrainingDetail(t, reportsOf.get(t.id) ?? [], examinationsOf.get(t.id) ?? [], [], filesOf.get(t.id) ?? []),
    );
    const shown = [...(open ? [open.training] : []), ...past];
    const names = await repos.staff.names(
      shown.flatMap((t) => [
        ...t.mentors,
        ...t.reports.flatMap((r) => (r.author_id === null ? [] : [r.author_id])),
        ...t.examinations.flatMap((x) => x.examiners),
      ]),
    );
    return { open, past, names };
  }
}
