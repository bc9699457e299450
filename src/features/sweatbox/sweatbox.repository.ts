// Sweatbox sessions (contract §23): the only SQL of the feature.
import type { Executor } from '../../core/db/connection.js';
import { personName } from '../members/domain/names.js';

export interface SessionRow {
  id: number;
  position_id: number;
  callsign: string;
  /** The position's area (null: none). */
  area_id: number | null;
  user_id: number;
  /** The booker as pages name them: "First Last (cid)". */
  booker: string;
  time_start: number;
  time_end: number;
  notes: string;
}

/** The database refusing overlapping sessions on one position: the PostgreSQL exclusion constraint or the SQLite triggers. */
export function isSweatboxOverlap(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string } | null | undefined;
  return (e?.code === '23P01' && e.constraint === 'sweatbox_no_overlap') || (e?.message ?? '').includes('sweatbox_no_overlap');
}

export function sweatboxRepository(db: Executor) {
  const sessions = () =>
    db
      .selectFrom('sweatbox_sessions as s')
      .innerJoin('positions as p', 'p.id', 's.position_id')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select(['s.id', 's.position_id', 'p.callsign', 'p.area_id', 's.user_id', 's.time_start', 's.time_end', 's.notes'])
      .select(['u.first_name', 'u.last_name']);
  const named = <T extends { first_name: string | null; last_name: string | null; user_id: number }>({
    first_name,
    last_name,
    ...row
  }: T) => ({ ...row, booker: personName(new Map([[row.user_id, `${first_name ?? ''} ${last_name ?? ''}`.trim()]]), row.user_id) });
  return {
    /** Sessions ending after `from` and starting before `to`, by start. */
    async list(from: number, to: number): Promise<SessionRow[]> {
      const rows = await sessions()
        .where('s.time_end', '>', from)
        .where('s.time_start', '<', to)
        .orderBy('s.time_start')
        .orderBy('s.id')
        .execute();
      return rows.map(named);
    },

    async find(id: number): Promise<SessionRow | undefined> {
      const row = await sessions().where('s.id', '=', id).executeTakeFirst();
      return row && named(row);
    },

    /** The sessions of a position overlapping [start, end), but `except`. */
    async overlapping(positionId: number, start: number, end: number, except = 0): Promise<SessionRow[]> {
      const rows = await sessions()
        .where('s.position_id', '=', positionId)
        .where('s.time_start', '<', end)
        .where('s.time_end', '>', start)
        .where('s.id', '<>', except)
        .execute();
      return rows.map(named);
    },

    async add(row: { position_id: number; user_id: number; time_start: number; time_end: number; notes: string; at: number }) {
      const { at, ...values } = row;
      const made = await db
        .insertInto('sweatbox_sessions')
        .values({ ...values, created_at: at, updated_at: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      return made.id;
    },

    async update(id: number, patch: { position_id: number; time_start: number; time_end: number; notes: string; at: number }) {
      const { at, ...values } = patch;
      await db
        .updateTable('sweatbox_sessions')
        .set({ ...values, updated_at: at })
        .where('id', '=', id)
        .execute();
    },

    async remove(id: number): Promise<boolean> {
      const gone = await db.deleteFrom('sweatbox_sessions').where('id', '=', id).executeTakeFirst();
      return Number(gone.numDeletedRows) > 0;
    },

    /** Removes the sessions that ended before `before`; how many. */
    async prune(before: number): Promise<number> {
      const gone = await db.deleteFrom('sweatbox_sessions').where('time_end', '<', before).executeTakeFirst();
      return Number(gone.numDeletedRows);
    },
  };
}

export type SweatboxRepository = ReturnType<typeof sweatboxRepository>;
