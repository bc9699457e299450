// Examinations of trainings (contract §18, §20): planned (no result) or graded, each with one or two
// examiners in order, the first of them also its examiner_id. Lists load the examiners of any
// number of examinations with one query per chunk.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../core/db/connection.js';
import type { TrainingExaminationsTable } from '../../core/db/schema.js';
import { chunks } from '../../core/db/chunks.js';
import { activeEndorsement } from '../endorsements/index.js';

export type ExaminationRow = Selectable<TrainingExaminationsTable> & {
  /** CIDs, the first being examiner_id. */
  examiners: number[];
};
/** An examination with what an overview shows beside it. */
export type ExaminationOverviewRow = ExaminationRow & { user_id: number; area_id: number };

export function trainingExaminationsRepository(db: Executor) {
  async function withExaminers<T extends Selectable<TrainingExaminationsTable>>(rows: T[]): Promise<Array<T & { examiners: number[] }>> {
    const of = new Map<number, number[]>();
    for (const part of chunks(rows.map((r) => r.id))) {
      const links = await db
        .selectFrom('training_examiners')
        .select(['examination_id', 'user_id'])
        .where('examination_id', 'in', part)
        .orderBy('examination_id')
        .orderBy('ordinal')
        .execute();
      for (const l of links) of.set(l.examination_id, [...(of.get(l.examination_id) ?? []), l.user_id]);
    }
    // An examination always has its first examiner: examiner_id (a row written before its examiners were).
    return rows.map((r) => ({ ...r, examiners: of.get(r.id) ?? [r.examiner_id] }));
  }

  /** The examiners, in order; examiner_id follows the first. */
  async function setExaminers(id: number, examiners: readonly number[]): Promise<void> {
    await db.deleteFrom('training_examiners').where('examination_id', '=', id).execute();
    await db
      .insertInto('training_examiners')
      .values(examiners.map((user_id, i) => ({ examination_id: id, ordinal: i + 1, user_id })))
      .execute();
    await db.updateTable('training_examinations').set({ examiner_id: examiners[0]! }).where('id', '=', id).execute();
  }

  return {
    /** A training's examinations, by date, time, then id. */
    async ofTraining(trainingId: number): Promise<ExaminationRow[]> {
      const rows = await db
        .selectFrom('training_examinations')
        .selectAll()
        .where('training_id', '=', trainingId)
        .orderBy('examination_date')
        .orderBy('start')
        .orderBy('id')
        .execute();
      return withExaminers(rows);
    },

    /** One examination of the training (undefined: none of it). */
    async find(trainingId: number, id: number): Promise<ExaminationRow | undefined> {
      const row = await db
        .selectFrom('training_examinations')
        .selectAll()
        .where('training_id', '=', trainingId)
        .where('id', '=', id)
        .executeTakeFirst();
      return row && (await withExaminers([row]))[0];
    },

    /**
     * Examinations of trainings in these areas (all when null), or of which `examiner` is one:
     * newest first (the staff overviews). Planned ones are listed whatever their number.
     */
    async overview(areaIds: readonly number[] | null, examiner: number | null, limit = 200): Promise<ExaminationOverviewRow[]> {
      const rows = await db
        .selectFrom('training_examinations as x')
        .innerJoin('trainings as t', 't.id', 'x.training_id')
        .selectAll('x')
        .select(['t.user_id', 't.area_id'])
        .$if(areaIds !== null, (q) =>
          q.where((eb) =>
            eb.or([
              eb('t.area_id', 'in', [...areaIds!, -1]),
              eb.exists(
                eb
                  .selectFrom('training_examiners as e')
                  .select('e.user_id')
                  .whereRef('e.examination_id', '=', 'x.id')
                  .where('e.user_id', '=', examiner ?? -1),
              ),
            ]),
          ),
        )
        .orderBy('x.examination_date', 'desc')
        .orderBy('x.start', 'desc')
        .orderBy('x.id', 'desc')
        .limit(limit)
        .execute();
      return withExaminers(rows);
    },

    /** Active examiner endorsements covering the area: holder and rating code (the eligibility rule's facts). */
    examinerRatings(
      areaId: number,
      now: number,
      cids: readonly number[] | null = null,
    ): Promise<Array<{ user_id: number; rating: string | null }>> {
      return db
        .selectFrom('endorsements')
        .innerJoin('endorsement_areas', 'endorsement_areas.endorsement_id', 'endorsements.id')
        .select(['endorsements.user_id', 'endorsements.rating'])
        .where('endorsements.type', '=', 'examiner')
        .where('endorsement_areas.area_id', '=', areaId)
        .where(activeEndorsement(now))
        .$if(cids !== null, (q) => q.where('endorsements.user_id', 'in', [...cids!, -1]))
        .orderBy('endorsements.user_id')
        .execute();
    },

    async insert(row: Insertable<TrainingExaminationsTable>, examiners: readonly number[]): Promise<ExaminationRow> {
      const made = await db.insertInto('training_examinations').values(row).returningAll().executeTakeFirstOrThrow();
      await setExaminers(made.id, examiners);
      return { ...made, examiners: [...examiners] };
    },

    async update(id: number, set: Updateable<TrainingExaminationsTable>): Promise<void> {
      await db.updateTable('training_examinations').set(set).where('id', '=', id).execute();
    },

    setExaminers,

    /** Deletes the examination (a cancelled planned one) and its examiners. */
    async remove(id: number): Promise<void> {
      await db.deleteFrom('training_examiners').where('examination_id', '=', id).execute();
      await db.deleteFrom('training_examinations').where('id', '=', id).execute();
    },
  };
}

export type TrainingExaminationsRepository = ReturnType<typeof trainingExaminationsRepository>;
