// The solos about to end whose holder has not been warned (contract §24): with the position, its
// area and the mentors of the holder's open training there, in one statement each.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';

export interface SoloEnding {
  id: number;
  user_id: number;
  valid_to: number;
  callsign: string;
  area: string | null;
  holder_first: string | null;
  holder_last: string | null;
  mentors: number[];
}

/** The key of a solo's warning in notices_sent (the notices feature's one table of keys). */
export const soloWarningKey = (id: number) => `endorsement.solo_ending:${id}`;

export function soloWarningsRepository(db: Kysely<Database>) {
  return {
    /** Solos not revoked, ending within (now, until], not yet warned (or these ids, warned or not). */
    async due(now: number, until: number, limit: number, ids?: readonly number[]): Promise<SoloEnding[]> {
      const rows = await db
        .selectFrom('endorsements as e')
        .innerJoin('endorsement_positions as ep', 'ep.endorsement_id', 'e.id')
        .innerJoin('positions as p', 'p.id', 'ep.position_id')
        .leftJoin('areas as a', 'a.id', 'p.area_id')
        .innerJoin('users as u', 'u.id', 'e.user_id')
        .select(['e.id', 'e.user_id', 'e.valid_to', 'p.callsign', 'p.area_id', 'a.name as area', 'u.first_name', 'u.last_name'])
        .where('e.type', '=', 'solo')
        .where('e.revoked', '=', 0)
        .where('e.valid_to', '>', now)
        .where('e.valid_to', '<=', until)
        .$if(ids !== undefined, (q) => q.where('e.id', 'in', [...ids!, -1]))
        .$if(ids === undefined, (q) =>
          q.where(
            sql<boolean>`NOT EXISTS (SELECT 1 FROM notices_sent n WHERE n.key = ${sql.lit('endorsement.solo_ending:')} || cast(e.id as text))`,
          ),
        )
        .orderBy('e.valid_to')
        .orderBy('e.id')
        .limit(limit)
        .execute();
      if (rows.length === 0) return [];
      // The mentors of the holder's open trainings in the position's area.
      const mentors = await db
        .selectFrom('trainings as t')
        .innerJoin('training_mentors as m', 'm.training_id', 't.id')
        .select(['t.user_id', 't.area_id', 'm.user_id as mentor'])
        .where('t.closed_at', 'is', null)
        .where('t.user_id', 'in', [...new Set(rows.map((r) => r.user_id))])
        .execute();
      return rows.map((r) => ({
        id: r.id,
        user_id: r.user_id,
        valid_to: r.valid_to!,
        callsign: r.callsign,
        area: r.area,
        holder_first: r.first_name,
        holder_last: r.last_name,
        mentors: [...new Set(mentors.filter((m) => m.user_id === r.user_id && m.area_id === r.area_id).map((m) => m.mentor))],
      }));
    },
  };
}
