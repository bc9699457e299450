// What a student sees of all their trainings at once (contract §20: past trainings keep their
// reports and examinations) and the examinations a member is to hold as examiner: one query each
// for any number of trainings.
import type { Executor } from '../../core/db/connection.js';
import type { ReportRow } from './records.repository.js';
import type { ExaminationRow } from './examinations.repository.js';

/** An examination a member holds as examiner, with whom it examines and where. */
export type ExaminerRow = Omit<ExaminationRow, 'examiners'> & { user_id: number; area: string };

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

    /** The examinations of these trainings with their examiners in order, by date then id: two queries whatever their number. */
    async examinations(trainingIds: readonly number[]): Promise<ExaminationRow[]> {
      const rows = await db
        .selectFrom('training_examinations')
        .selectAll()
        .where('training_id', 'in', [...trainingIds, -1])
        .orderBy('examination_date')
        .orderBy('id')
        .execute();
      const examiners = await db
        .selectFrom('training_examiners')
        .select(['examination_id', 'user_id'])
        .where('examination_id', 'in', [...rows.map((r) => r.id), -1])
        .orderBy('examination_id')
        .orderBy('ordinal')
        .execute();
      const of = new Map<number, number[]>();
      for (const e of examiners) of.set(e.examination_id, [...(of.get(e.examination_id) ?? []), e.user_id]);
      return rows.map((r) => ({ ...r, examiners: of.get(r.id) ?? [r.examiner_id] }));
    },

    /** Examinations on or after `today` (YYYY-MM-DD) that `cid` holds as examiner, soonest first. */
    asExaminer(cid: number, today: string): Promise<ExaminerRow[]> {
      return (
        db
          .selectFrom('training_examinations as x')
          .innerJoin('trainings as t', 't.id', 'x.training_id')
          .innerJoin('areas as a', 'a.id', 't.area_id')
          .selectAll('x')
          .select(['t.user_id', 'a.name as area'])
          // Any of its examiners, not only the first.
          .where((eb) => eb('x.id', 'in', eb.selectFrom('training_examiners').select('examination_id').where('user_id', '=', cid)))
          .where('x.examination_date', '>=', today)
          .orderBy('x.examination_date')
          .orderBy('x.id')
          .limit(100)
          .execute()
      );
    },
  };
}

export type TrainingHistoryRepository = ReturnType<typeof trainingHistoryRepository>;
