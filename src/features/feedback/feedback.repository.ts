// Feedback (contract §23): the only SQL of the feature.
import type { Dialect, Executor } from '../../core/db/connection.js';

export interface FeedbackRow {
  id: number;
  sender_id: number;
  controller: number | null;
  position_id: number | null;
  callsign: string | null;
  area_id: number | null;
  area: string | null;
  text: string;
  actioned: number;
  created_at: number;
}

export interface CommentRow {
  id: number;
  feedback_id: number;
  author_id: number;
  text: string;
  created_at: number;
}

/** Which feedback a reader sees: that of positions of these areas, and (noPosition) that without a position. */
export interface FeedbackScope {
  areas: readonly number[];
  noPosition: boolean;
  /** Only of this area / this controller (the API's filters). */
  area?: number;
  controller?: number;
}

export function feedbackRepository(db: Executor, dialect: Dialect) {
  const rows = () =>
    db
      .selectFrom('feedback as f')
      .leftJoin('positions as p', 'p.id', 'f.position_id')
      .leftJoin('areas as a', 'a.id', 'p.area_id')
      .select([
        'f.id',
        'f.sender_id',
        'f.controller',
        'f.position_id',
        'p.callsign',
        'p.area_id',
        'a.name as area',
        'f.text',
        'f.actioned',
        'f.created_at',
      ]);
  return {
    /** The feedback in scope, newest first (at most `limit`). */
    list(scope: FeedbackScope, limit = 500): Promise<FeedbackRow[]> {
      return rows()
        .where((eb) =>
          eb.or([
            eb('p.area_id', 'in', [...scope.areas, -1]),
            ...(scope.noPosition ? [eb('f.position_id', 'is', null)] : []),
            // A position without an area: as feedback without a position.
            ...(scope.noPosition ? [eb.and([eb('f.position_id', 'is not', null), eb('p.area_id', 'is', null)])] : []),
          ]),
        )
        .$if(scope.area !== undefined, (q) => q.where('p.area_id', '=', scope.area!))
        .$if(scope.controller !== undefined, (q) => q.where('f.controller', '=', scope.controller!))
        .orderBy('f.created_at', 'desc')
        .orderBy('f.id', 'desc')
        .limit(limit)
        .execute();
    },

    find(id: number): Promise<FeedbackRow | undefined> {
      return rows().where('f.id', '=', id).executeTakeFirst();
    },

    comments(ids: readonly number[]): Promise<CommentRow[]> {
      return db
        .selectFrom('feedback_comments')
        .selectAll()
        .where('feedback_id', 'in', [...ids, -1])
        .orderBy('id')
        .execute();
    },

    /** How many feedback the member sent since `since`, with their user row locked so two sends count one after the other. */
    async sentSince(cid: number, since: number): Promise<number> {
      if (dialect === 'postgres') await db.selectFrom('users').select('id').where('id', '=', cid).forUpdate().execute();
      const row = await db
        .selectFrom('feedback')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('sender_id', '=', cid)
        .where('created_at', '>', since)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async add(row: {
      sender_id: number;
      controller: number | null;
      position_id: number | null;
      text: string;
      at: number;
    }): Promise<number> {
      const { at, ...values } = row;
      const made = await db
        .insertInto('feedback')
        .values({ ...values, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return made.id;
    },

    async correct(id: number, patch: { controller: number | null; position_id: number | null; at: number }): Promise<void> {
      await db
        .updateTable('feedback')
        .set({ controller: patch.controller, position_id: patch.position_id, updated_at: patch.at })
        .where('id', '=', id)
        .execute();
    },

    async setActioned(id: number, actioned: boolean, at: number): Promise<void> {
      await db
        .updateTable('feedback')
        .set({ actioned: actioned ? 1 : 0, updated_at: at })
        .where('id', '=', id)
        .execute();
    },

    async addComment(row: { feedback_id: number; author_id: number; text: string; created_at: number }): Promise<void> {
      await db.insertInto('feedback_comments').values(row).execute();
    },
  };
}

export type FeedbackRepository = ReturnType<typeof feedbackRepository>;
