// The activity, mentors and access reports' rows (contract §25): set-based queries over the chosen
// areas; the hours are summed by the database, so 200,000 sessions never leave it.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { activeEndorsement } from '../endorsements/index.js';
import type { Month } from './domain.js';

const ids = (list: readonly number[]) => (list.length > 0 ? [...list] : [-1]);
const num = (v: number | string | null): number => (v === null ? 0 : Number(v));

export function staffFiguresRepository(db: Kysely<Database>) {
  /**
   * A session's time within [from, to): a session still seen counts to its last sighting, as ATC
   * activity counts it (src/features/activity/activity.repository.ts).
   */
  const within = (from: number | ReturnType<typeof sql.ref>, to: number | ReturnType<typeof sql.ref>) =>
    sql<
      number | string
    >`SUM((CASE WHEN s.last_seen > ${to} THEN ${to} ELSE s.last_seen END) - (CASE WHEN s.logon_time < ${from} THEN ${from} ELSE s.logon_time END))`;

  const sessionsIn = (areaIds: readonly number[], from: number, to: number) =>
    db
      .selectFrom('atc_sessions as s')
      // A set of the areas' callsigns, not a join: one probe of a small set per session, read from the index alone.
      .where('s.position', 'in', db.selectFrom('positions as p').select('p.callsign').where('p.area_id', 'in', ids(areaIds)))
      .where('s.last_seen', '>', from)
      .where('s.logon_time', '<', to);

  return {
    /**
     * Controlled milliseconds per month. Sessions within one month are summed by the database, by the
     * month of their start; the few that cross a month's end (or the period's edges) are read and cut
     * into their months here, each part counted in its month.
     */
    async monthlyMs(areaIds: readonly number[], months: readonly Month[]): Promise<number[]> {
      const bounds = [months[0]!.start, ...months.map((m) => m.end)];
      const crosses = sql<boolean>`(${sql.join(
        bounds.map((b) => sql`(s.logon_time < ${sql.lit(b)} AND s.last_seen > ${sql.lit(b)})`),
        sql` OR `,
      )})`;
      const monthIndex = sql<number | string>`CASE ${sql.join(
        months.map((m, i) => sql`WHEN s.logon_time < ${sql.lit(m.end)} THEN ${sql.lit(i)}`),
        sql` `,
      )} END`;
      const [whole, crossing] = await Promise.all([
        sessionsIn(areaIds, bounds[0]!, bounds.at(-1)!)
          .where(sql<boolean>`NOT ${crosses}`)
          .select([monthIndex.as('i'), sql<number | string>`SUM(s.last_seen - s.logon_time)`.as('ms')])
          .groupBy(sql`1`)
          .execute(),
        sessionsIn(areaIds, bounds[0]!, bounds.at(-1)!).where(crosses).select(['s.logon_time', 's.last_seen']).execute(),
      ]);
      const out = months.map(() => 0);
      for (const r of whole) out[Number(r.i)]! += Math.max(0, num(r.ms));
      for (const c of crossing) {
        months.forEach((m, i) => {
          const part = Math.min(c.last_seen, m.end) - Math.max(c.logon_time, m.start);
          if (part > 0) out[i]! += part;
        });
      }
      return out;
    },

    /** The most active controllers of [from, to): their CID, name (the user's, else the feed's) and time. */
    async topControllers(areaIds: readonly number[], from: number, to: number, limit: number) {
      // Summed per CID first; only the 20 found are joined to their names.
      const top = sessionsIn(areaIds, from, to)
        .select(['s.cid', within(from, to).as('ms'), (eb) => eb.fn.max('s.name').as('feed_name')])
        .groupBy('s.cid')
        .orderBy('ms', 'desc')
        .orderBy('s.cid')
        .limit(limit);
      const rows = await db
        .selectFrom(top.as('t'))
        .leftJoin('users as u', 'u.id', 't.cid')
        .select(['t.cid', 't.ms', 't.feed_name', 'u.first_name', 'u.last_name'])
        .orderBy('t.ms', 'desc')
        .orderBy('t.cid')
        .execute();
      return rows.map((r) => ({
        cid: r.cid,
        name: r.first_name !== null || r.last_name !== null ? `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() : r.feed_name,
        ms: num(r.ms),
      }));
    },

    /**
     * Members by their best ATC activity in the areas, as stored (§16): active (not by a grace),
     * in a grace given since `graceSince`, or inactive.
     */
    async activityStatuses(areaIds: readonly number[], graceSince: number) {
      const best = db
        .selectFrom('user_area_activity as a')
        .select([
          'a.user_id',
          sql<
            number | string
          >`MAX(CASE WHEN a.active = 1 AND (a.granted_at IS NULL OR a.granted_at <= ${graceSince}) THEN 2 WHEN a.active = 1 THEN 1 ELSE 0 END)`.as(
            'best',
          ),
        ])
        .where('a.area_id', 'in', ids(areaIds))
        .groupBy('a.user_id');
      const rows = await db
        .selectFrom(best.as('b'))
        .select(['b.best', sql<number | string>`count(*)`.as('n')])
        .groupBy('b.best')
        .execute();
      const of = (best: number) => num(rows.find((r) => Number(r.best) === best)?.n ?? 0);
      return { active: of(2), grace: of(1), inactive: of(0) };
    },

    /** Who mentors in the areas: holders of Mentor there, and mentors of an open training there. */
    async mentors(areaIds: readonly number[]): Promise<number[]> {
      const rows = await db
        .selectFrom('roles')
        .select('user_id')
        .where('role', '=', 'Mentor')
        .where('area_id', 'in', ids(areaIds))
        .union(
          db
            .selectFrom('training_mentors as tm')
            .innerJoin('trainings as t', 't.id', 'tm.training_id')
            .select('tm.user_id')
            .where('t.status', '>=', 0)
            .where('t.area_id', 'in', ids(areaIds)),
        )
        .execute();
      return rows.map((r) => r.user_id);
    },

    /** Open trainings of the areas per mentor. */
    async traineesNow(areaIds: readonly number[]) {
      const rows = await db
        .selectFrom('training_mentors as tm')
        .innerJoin('trainings as t', 't.id', 'tm.training_id')
        .select(['tm.user_id', sql<number | string>`count(*)`.as('n')])
        .where('t.status', '>=', 0)
        .where('t.area_id', 'in', ids(areaIds))
        .groupBy('tm.user_id')
        .execute();
      return new Map(rows.map((r) => [r.user_id, num(r.n)]));
    },

    /** Reports written per author in trainings of the areas: since each date (YYYY-MM-DD), and the last one's date. */
    async reportsBy(areaIds: readonly number[], since30: string, since90: string) {
      const rows = await db
        .selectFrom('training_reports as r')
        .innerJoin('trainings as t', 't.id', 'r.training_id')
        .select([
          'r.author_id',
          sql<number | string>`SUM(CASE WHEN r.report_date >= ${since30} THEN 1 ELSE 0 END)`.as('d30'),
          sql<number | string>`SUM(CASE WHEN r.report_date >= ${since90} THEN 1 ELSE 0 END)`.as('d90'),
          (eb) => eb.fn.max('r.report_date').as('last'),
        ])
        .where('r.author_id', 'is not', null)
        .where('t.area_id', 'in', ids(areaIds))
        .groupBy('r.author_id')
        .execute();
      return new Map(rows.map((r) => [r.author_id!, { d30: num(r.d30), d90: num(r.d90), last: r.last }]));
    },

    /** Graded examinations of the areas from `since` (YYYY-MM-DD) per examiner. */
    async examinedBy(areaIds: readonly number[], since: string) {
      const rows = await db
        .selectFrom('training_examiners as x')
        .innerJoin('training_examinations as e', 'e.id', 'x.examination_id')
        .innerJoin('trainings as t', 't.id', 'e.training_id')
        .select(['x.user_id', sql<number | string>`count(*)`.as('n')])
        .where('e.result', 'is not', null)
        .where('e.examination_date', '>=', since)
        .where('t.area_id', 'in', ids(areaIds))
        .groupBy('x.user_id')
        .execute();
      return new Map(rows.map((r) => [r.user_id, num(r.n)]));
    },

    /** Roles held in the areas, and division-wide (area null). */
    roles(areaIds: readonly number[]) {
      return db
        .selectFrom('roles as r')
        .leftJoin('areas as a', 'a.id', 'r.area_id')
        .select(['r.user_id', 'r.role', 'a.name as area'])
        .where((eb) => eb.or([eb('r.area_id', 'in', ids(areaIds)), eb('r.area_id', 'is', null)]))
        .execute();
    },

    /** Active examiner and visiting endorsements naming one of the areas, one row per endorsement and area. */
    endorsements(areaIds: readonly number[], now: number) {
      return db
        .selectFrom('endorsements')
        .innerJoin('endorsement_areas as ea', 'ea.endorsement_id', 'endorsements.id')
        .innerJoin('areas as a', 'a.id', 'ea.area_id')
        .select([
          'endorsements.id',
          'endorsements.user_id',
          'endorsements.type',
          'endorsements.rating',
          'endorsements.valid_to',
          'a.name as area',
        ])
        .where('endorsements.type', 'in', ['examiner', 'visiting'])
        .where('ea.area_id', 'in', ids(areaIds))
        .where(activeEndorsement(now))
        .orderBy('endorsements.id')
        .execute();
    },
  };
}

export type StaffFiguresRepository = ReturnType<typeof staffFiguresRepository>;
