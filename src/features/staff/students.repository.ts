// "My students" (contract §20): the open trainings a member mentors, each with the date of its last
// report and of its next examination — one query for all of them.
import type { Executor } from '../../core/db/connection.js';

export interface MentoredRow {
  training_id: number;
  /** YYYY-MM-DD of the newest report (drafts too: the mentor wrote them), or null. */
  last_report: string | null;
  /** YYYY-MM-DD of the first examination on or after today, or null. */
  next_exam: string | null;
}

export function studentsRepository(db: Executor) {
  return {
    mentoredBy(cid: number, today: string): Promise<MentoredRow[]> {
      return db
        .selectFrom('trainings as t')
        .innerJoin('training_mentors as m', 'm.training_id', 't.id')
        .select('t.id as training_id')
        .select((eb) => [
          eb
            .selectFrom('training_reports as r')
            .select((r) => r.fn.max('r.report_date').as('d'))
            .whereRef('r.training_id', '=', 't.id')
            .as('last_report'),
          eb
            .selectFrom('training_examinations as x')
            .select((x) => x.fn.min('x.examination_date').as('d'))
            .whereRef('x.training_id', '=', 't.id')
            .where('x.examination_date', '>=', today)
            .as('next_exam'),
        ])
        .where('m.user_id', '=', cid)
        .where('t.status', '>=', 0)
        .orderBy('t.id')
        .execute();
    },
  };
}

export type StudentsRepository = ReturnType<typeof studentsRepository>;
