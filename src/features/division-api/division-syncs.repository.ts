// The reconcile with the division's hub (contract §22): what Sector wants the hub to hold, read in
// two set-based queries, and the record of each run (division_syncs).
import type { Kysely } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database } from '../../core/db/schema.js';
import { activeEndorsement } from '../endorsements/index.js';
import type { WantedTier } from './division-sync.domain.js';

export function divisionSyncsRepository(db: Kysely<Database>, _dialect: Dialect) {
  /** Members ATC-active in some area, and holders of an active visiting endorsement. */
  const rosterQuery = (now: number) =>
    db
      .selectFrom('user_area_activity')
      .select('user_id')
      .where('active', '=', 1)
      .union(db.selectFrom('endorsements').select('user_id').where('type', '=', 'visiting').where(activeEndorsement(now)));

  return {
    /** The roster Sector wants on the hub, and the active tiered facility endorsements of its members. */
    async wanted(now: number): Promise<{ roster: number[]; tiers: WantedTier[] }> {
      const roster = await rosterQuery(now).execute();
      const tiers = await db
        .selectFrom('endorsements as e')
        .innerJoin('facilities as f', 'f.name', 'e.rating')
        .select(['e.user_id', 'f.name', 'f.tier', 'e.issued_by'])
        .where('e.type', '=', 'facility')
        .where(activeEndorsement(now, 'e'))
        .where('f.tier', 'in', ['T1', 'T2'])
        .where('e.user_id', 'in', rosterQuery(now))
        .orderBy('e.user_id')
        .orderBy('e.id')
        .execute();
      return {
        roster: roster.map((r) => r.user_id),
        tiers: tiers.map((t) => ({
          tier: t.tier === 'T1' ? 1 : 2,
          user_cid: t.user_id,
          position: t.name,
          issued_by: t.issued_by,
        })),
      };
    },

    async start(startedAt: number, forced: boolean): Promise<number> {
      const row = await db
        .insertInto('division_syncs')
        .values({ started_at: startedAt, forced: forced ? 1 : 0, added: '{"roster":[],"tiers":[]}', removed: '{"roster":[],"tiers":[]}' })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** What the run has done so far, its end, its error. */
    async progress(
      id: number,
      done: { added: { roster: number[]; tiers: unknown[] }; removed: { roster: number[]; tiers: unknown[] } },
      end: { finished_at: number; error: string | null } | null,
    ): Promise<void> {
      await db
        .updateTable('division_syncs')
        .set({
          roster_added: done.added.roster.length,
          roster_removed: done.removed.roster.length,
          tiers_added: done.added.tiers.length,
          tiers_removed: done.removed.tiers.length,
          added: JSON.stringify(done.added),
          removed: JSON.stringify(done.removed),
          ...(end ?? {}),
        })
        .where('id', '=', id)
        .execute();
    },

    /** The latest run (none: undefined). */
    async last() {
      return db.selectFrom('division_syncs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst();
    },
  };
}
