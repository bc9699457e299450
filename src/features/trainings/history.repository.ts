// What a student sees of all their trainings at once (contract §20: past trainings keep their
// reports and examinations) and the examinations a member is to hold as examiner: one query each
// for any number of trainings.
import type { Executor } from '../../core/db/connection.js';
import type { ExaminationRow, ReportRow } from './records.repository.js';

/** An examination a member holds as examiner, with whom it examines and where. */
export type ExaminerRow = ExaminationRow & { user_id: number; area: string };

export function trainingHistoryRepository(db: Executor) {
  return {
    /** The published reports of these trainings, by date then id. */
    publishedReports(trainingIds: readonly number[]): Promise<ReportRow[]> {
      return db
        .selectFrom('training_reports')
        .selectAll()
        .where('training_id', 'in', [...trainingIds, -1])
        .where('draft', '=', 0)
        .orderBy('report_date')
        .orderBy('id')
        .execute();
    },

    /** The examinations of these trainings, by date then id. */
    examinations(trainingIds: readonly number[]): Promise<ExaminationRow[]> {
      return db
        .selectFrom('training_examinations')
        .selectAll()
        .where('training_id', 'in', [...trainingIds, -1])
        .orderBy('examination_date')
        .orderBy('id')
        .execute();
    },

    /** Examinations on or after `today` (YYYY-MM-DD) that `cid` holds as examiner, soonest first. */
    asExaminer(cid: number, today: string): Promise<ExaminerRow[]> {
      return db
        .selectFrom('training_examinations as x')
        .innerJoin('trainings as t', 't.id', 'x.training_id')
        .innerJoin('areas as a', 'a.id', 't.area_id')
        .selectAll('x')
        .select(['t.user_id', 'a.name as area'])
        .where('x.examiner_id', '=', cid)
        .where('x.examination_date', '>=', today)
        .orderBy('x.examination_date')
        .orderBy('x.id')
        .limit(100)
        .execute();
    },
  };
}

export type TrainingHistoryRepository = ReturnType<typeof trainingHistoryRepository>;
