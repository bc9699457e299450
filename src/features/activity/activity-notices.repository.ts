// What the activity mails read (contract §24): controllers online on an area's positions while not
// ATC-active there, not yet alerted; and the sessions of the members active in an area, for when
// their activity lapses. Set-based: one statement each, whatever the number of people.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';

export interface InactiveOnline {
  session_id: number;
  cid: number;
  callsign: string;
  area_id: number;
  area: string;
  since: number;
  first_name: string | null;
  last_name: string | null;
  moderators: number[];
}

/** The key of a controlling session's alert in notices_sent. */
export const inactiveOnlineKey = (sessionId: number) => `activity.inactive_online:${sessionId}`;

export function activityNoticesRepository(db: Kysely<Database>) {
  return {
    /** Open feed sessions of users on a position of an area they are not active in, not yet alerted. */
    async inactiveOnline(limit: number): Promise<InactiveOnline[]> {
      const rows = await db
        .selectFrom('atc_sessions as s')
        .innerJoin('positions as p', 'p.callsign', 's.position')
        .innerJoin('areas as a', 'a.id', 'p.area_id')
        .innerJoin('users as u', 'u.id', 's.cid')
        .leftJoin('user_area_activity as ua', (j) => j.onRef('ua.user_id', '=', 's.cid').onRef('ua.area_id', '=', 'p.area_id'))
        .select(['s.id', 's.cid', 's.callsign', 'p.area_id', 'a.name as area', 's.logon_time', 'u.first_name', 'u.last_name'])
        .where('s.ended_at', 'is', null)
        .where('s.source', '=', 'feed')
        .where((eb) => eb.or([eb('ua.active', 'is', null), eb('ua.active', '=', 0)]))
        .where(
          sql<boolean>`NOT EXISTS (SELECT 1 FROM notices_sent n WHERE n.key = ${sql.lit('activity.inactive_online:')} || cast(s.id as text))`,
        )
        .orderBy('s.id')
        .limit(limit)
        .execute();
      if (rows.length === 0) return [];
      const moderators = await db
        .selectFrom('roles')
        .select(['user_id', 'area_id'])
        .where('role', '=', 'Moderator')
        .where('area_id', 'in', [...new Set(rows.map((r) => r.area_id!))])
        .execute();
      return rows.map((r) => ({
        session_id: r.id,
        cid: r.cid,
        callsign: r.callsign,
        area_id: r.area_id!,
        area: r.area,
        since: r.logon_time,
        first_name: r.first_name,
        last_name: r.last_name,
        moderators: moderators.filter((m) => m.area_id === r.area_id).map((m) => m.user_id),
      }));
    },

    /** The (user, area) pairs active now, with their grace start and their sessions since `from` on the area's positions. */
    async activePairs(from: number) {
      const [pairs, sessions] = await Promise.all([
        db
          .selectFrom('user_area_activity as ua')
          .innerJoin('areas as a', 'a.id', 'ua.area_id')
          .select(['ua.user_id', 'ua.area_id', 'a.name as area', 'ua.granted_at'])
          .where('ua.active', '=', 1)
          .execute(),
        db
          .selectFrom('atc_sessions as s')
          .innerJoin('positions as p', 'p.callsign', 's.position')
          .innerJoin('user_area_activity as ua', (j) => j.onRef('ua.user_id', '=', 's.cid').onRef('ua.area_id', '=', 'p.area_id'))
          .select(['s.cid', 'p.area_id', 's.logon_time', 's.last_seen'])
          .where('ua.active', '=', 1)
          .where('s.last_seen', '>', from)
          .execute(),
      ]);
      return { pairs, sessions };
    },
  };
}
