// The CPT uploads owed to the division's hub (contract §22): examinations graded PASSED or FAILED
// of a training for S2 or above wait here from their grading until they carry a non-hidden file,
// then their upload is queued once; a correction finds the row and adds nothing.
import type { Executor } from '../../core/db/connection.js';
import { RATINGS } from '../members/domain/ratings.js';

const BATCH = 500;

export interface DueCpt {
  examination_id: number;
  /** The student. */
  user_id: number;
  examiner_id: number;
  position: string;
  result: 'PASSED' | 'FAILED';
}

export function divisionCptRepository(db: Executor) {
  return {
    /** These examinations were just graded: those now PASSED or FAILED, of a training for S2 or above, wait for a file (once). */
    async graded(ids: readonly number[], now: number): Promise<void> {
      if (ids.length === 0) return;
      const rows = await db
        .selectFrom('training_examinations as x')
        .select('x.id')
        .where('x.id', 'in', [...ids])
        .where('x.result', 'in', ['PASSED', 'FAILED'])
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('training_ratings as r')
              .select('r.training_id')
              .whereRef('r.training_id', '=', 'x.training_id')
              .where('r.rating', '>=', RATINGS.S2),
          ),
        )
        .execute();
      if (rows.length === 0) return;
      await db
        .insertInto('division_cpt')
        .values(rows.map((r) => ({ examination_id: r.id, graded_at: now })))
        .onConflict((oc) => oc.column('examination_id').doNothing())
        .execute();
    },

    /** The waiting examinations, still PASSED or FAILED, that now carry a non-hidden file: marked queued and returned. */
    async takeDue(now: number): Promise<DueCpt[]> {
      const rows = await db
        .selectFrom('division_cpt as c')
        .innerJoin('training_examinations as x', 'x.id', 'c.examination_id')
        .innerJoin('trainings as t', 't.id', 'x.training_id')
        .select(['c.examination_id', 't.user_id', 'x.examiner_id', 'x.position', 'x.result'])
        .where('c.queued_at', 'is', null)
        .where('x.result', 'in', ['PASSED', 'FAILED'])
        .where((eb) =>
          eb.exists(
            eb.selectFrom('training_attachments as a').select('a.id').whereRef('a.examination_id', '=', 'x.id').where('a.hidden', '=', 0),
          ),
        )
        .orderBy('c.examination_id')
        .limit(BATCH)
        .execute();
      if (rows.length === 0) return [];
      await db
        .updateTable('division_cpt')
        .set({ queued_at: now })
        .where(
          'examination_id',
          'in',
          rows.map((r) => r.examination_id),
        )
        .execute();
      return rows as DueCpt[];
    },

    /** An examination's first non-hidden file, read when its upload is sent (none: undefined). */
    async file(examinationId: number): Promise<{ name: string; type: string; content: Buffer } | undefined> {
      const row = await db
        .selectFrom('training_attachments')
        .select(['name', 'type', 'content'])
        .where('examination_id', '=', examinationId)
        .where('hidden', '=', 0)
        .orderBy('id')
        .limit(1)
        .executeTakeFirst();
      return row && { name: row.name, type: row.type, content: Buffer.from(row.content) };
    },
  };
}
