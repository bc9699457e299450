// The training report's rows (contract §25): a fixed number of set-based queries over the trainings of
// the chosen areas, whatever their number (a division keeps a few thousand).
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { ratingCode } from '../members/domain/ratings.js';

export interface TrainingFigureRow {
  id: number;
  area_id: number;
  status: number;
  created_at: number;
  closed_at: number | null;
  started_at: number | null;
  queue_wait_ms: number | null;
  /** When it first left the queue, from the timeline (null: never, or no timeline kept). */
  first_start: number | null;
}

/** Ids that match nothing keep `in (…)` valid for an empty list. */
const ids = (list: readonly number[]) => (list.length > 0 ? [...list] : [-1]);

/**
 * The first time a training left the queue, from its timeline: a status change from In queue to a
 * started status (1–3), or a creation in a started status (staff may create one past the queue). The
 * timeline's detail is JSON written by JSON.stringify in a fixed key order ({"from","to",…};
 * {"type","status",…}), so a prefix or infix match finds it in both dialects without JSON functions.
 */
function firstStarts(db: Kysely<Database>, areaIds: readonly number[]) {
  return db
    .selectFrom('training_timeline as tl')
    .innerJoin('trainings as t', 't.id', 'tl.training_id')
    .select(['tl.training_id', (eb) => eb.fn.min('tl.at').as('first_start')])
    .where('t.area_id', 'in', ids(areaIds))
    .where((eb) =>
      eb.or([
        eb.and([eb('tl.action', '=', 'status'), eb.or([1, 2, 3].map((to) => eb('tl.detail', 'like', `{"from":0,"to":${to}%`)))]),
        eb.and([eb('tl.action', '=', 'created'), eb.or([1, 2, 3].map((s) => eb('tl.detail', 'like', `%"status":${s},%`)))]),
      ]),
    )
    .groupBy('tl.training_id');
}

export function trainingFiguresRepository(db: Kysely<Database>) {
  return {
    /** Every training of the areas with the times the report counts, and its first start. */
    async trainings(areaIds: readonly number[]): Promise<TrainingFigureRow[]> {
      // Two statements rather than a join to the grouped timeline, which SQLite re-read per training.
      const [rows, starts] = await Promise.all([
        db
          .selectFrom('trainings as t')
          .select(['t.id', 't.area_id', 't.status', 't.created_at', 't.closed_at', 't.started_at', 't.queue_wait_ms'])
          .where('t.area_id', 'in', ids(areaIds))
          .execute(),
        firstStarts(db, areaIds).execute(),
      ]);
      // PostgreSQL answers a MIN of a bigint as a string.
      const first = new Map(starts.map((s) => [s.training_id, Number(s.first_start as number | string)]));
      return rows.map((r) => ({ ...r, first_start: first.get(r.id) ?? null }));
    },

    /** What each training of the areas is for: rating codes and facility names, by training id. */
    async trainedFor(areaIds: readonly number[]): Promise<Map<number, string[]>> {
      const [ratings, facilities] = await Promise.all([
        db
          .selectFrom('training_ratings as r')
          .innerJoin('trainings as t', 't.id', 'r.training_id')
          .select(['r.training_id', 'r.rating'])
          .where('t.area_id', 'in', ids(areaIds))
          .execute(),
        db
          .selectFrom('training_facilities as f')
          .innerJoin('trainings as t', 't.id', 'f.training_id')
          .select(['f.training_id', 'f.name'])
          .where('t.area_id', 'in', ids(areaIds))
          .execute(),
      ]);
      const out = new Map<number, string[]>();
      const add = (id: number, label: string) => out.set(id, [...(out.get(id) ?? []), label]);
      for (const r of ratings) add(r.training_id, ratingCode(r.rating));
      for (const f of facilities) add(f.training_id, f.name);
      return out;
    },

    /** Graded examinations (PASSED or FAILED) from `since` (YYYY-MM-DD), counted per training and result. */
    async examResults(areaIds: readonly number[], since: string) {
      const rows = await db
        .selectFrom('training_examinations as e')
        .innerJoin('trainings as t', 't.id', 'e.training_id')
        .select(['e.training_id', 'e.result', sql<number | string>`count(*)`.as('n')])
        .where('t.area_id', 'in', ids(areaIds))
        .where('e.result', 'in', ['PASSED', 'FAILED'])
        .where('e.examination_date', '>=', since)
        .groupBy(['e.training_id', 'e.result'])
        .execute();
      return rows.map((r) => ({ training_id: r.training_id, result: r.result!, n: Number(r.n) }));
    },
  };
}

export type TrainingFiguresRepository = ReturnType<typeof trainingFiguresRepository>;
