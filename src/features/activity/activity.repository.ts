// ATC activity's SQL: controlled time per user and area within a period, the stored activity, and
// the changes of a recompute, set-based.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { chunks } from '../transfer/import-rows.repository.js';

export interface ActivityRow {
  user_id: number;
  area_id: number;
  area: string;
  /** Controlled milliseconds within the period. */
  ms: number;
  active: number | null;
  granted_at: number | null;
}

/**
 * Every (user, area) with sessions within [from, to) or a stored activity row, with the time
 * controlled there in the period. Sessions of people who are not users count for nobody yet.
 */
async function activityRows(db: Kysely<Database>, from: number, to: number, cids: readonly number[] | null): Promise<ActivityRow[]> {
  // PostgreSQL returns a SUM of bigints as a numeric string.
  const within = sql<number | string>`SUM(
    (CASE WHEN s.last_seen > ${to} THEN ${to} ELSE s.last_seen END) - (CASE WHEN s.logon_time < ${from} THEN ${from} ELSE s.logon_time END))`;
  let hours = db
    .selectFrom('atc_sessions as s')
    .innerJoin('positions as p', 'p.callsign', 's.position')
    .innerJoin('users as u', 'u.id', 's.cid')
    .select(['s.cid as user_id', 'p.area_id', within.as('ms')])
    .where('s.last_seen', '>', from)
    .where('s.logon_time', '<', to)
    .where('p.area_id', 'is not', null)
    .groupBy(['s.cid', 'p.area_id']);
  let stored = db.selectFrom('user_area_activity as a').select(['a.user_id', 'a.area_id', 'a.active', 'a.granted_at']);
  if (cids !== null) {
    hours = hours.where('s.cid', 'in', cids.length > 0 ? [...cids] : [-1]);
    stored = stored.where('a.user_id', 'in', cids.length > 0 ? [...cids] : [-1]);
  }
  const [timeRows, storedRows, areas] = await Promise.all([
    hours.execute(),
    stored.execute(),
    db.selectFrom('areas').select(['id', 'name']).execute(),
  ]);
  const areaName = new Map(areas.map((a) => [a.id, a.name]));
  const out = new Map<string, ActivityRow>();
  const row = (user_id: number, area_id: number): ActivityRow => {
    const key = `${user_id}:${area_id}`;
    let r = out.get(key);
    if (r === undefined) {
      r = { user_id, area_id, area: areaName.get(area_id) ?? String(area_id), ms: 0, active: null, granted_at: null };
      out.set(key, r);
    }
    return r;
  };
  for (const t of timeRows) row(t.user_id, t.area_id!).ms = Math.max(0, Number(t.ms));
  for (const s of storedRows) Object.assign(row(s.user_id, s.area_id), { active: s.active, granted_at: s.granted_at });
  return [...out.values()].sort((a, b) => a.user_id - b.user_id || (a.area < b.area ? -1 : a.area > b.area ? 1 : 0));
}

/** Stores the activity that changed (new rows for areas a user became active in). */
async function writeActivity(
  trx: Kysely<Database>,
  rows: ReadonlyArray<{ user_id: number; area_id: number; active: number }>,
): Promise<void> {
  for (const part of chunks([...rows])) {
    await trx
      .insertInto('user_area_activity')
      .values(part)
      .onConflict((oc) => oc.columns(['user_id', 'area_id']).doUpdateSet((eb) => ({ active: eb.ref('excluded.active') })))
      .execute();
  }
}

export function activityRepository(db: Kysely<Database>) {
  return {
    rows: (from: number, to: number, cids: readonly number[] | null) => activityRows(db, from, to, cids),
    write: (rows: ReadonlyArray<{ user_id: number; area_id: number; active: number }>) => writeActivity(db, rows),
  };
}

export type ActivityRepository = ReturnType<typeof activityRepository>;
