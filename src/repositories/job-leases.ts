// The cross-instance lock of scheduled jobs: one row per job, taken by one conditional upsert
// (SQLite and PostgreSQL alike), so no two instances can both believe they hold it.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export function jobLeasesRepository(db: Kysely<Database>) {
  return {
    /**
     * Takes the job's lease until `until` when nobody holds it at `now` (no row yet, or its lease
     * lapsed). Returns null when taken, else until when the current holder keeps it.
     */
    async take(name: string, owner: string, now: number, until: number): Promise<number | null> {
      const taken = await db
        .insertInto('job_leases')
        .values({ name, owner, lease_until: until, last_success_at: null })
        .onConflict((oc) => oc.column('name').doUpdateSet({ owner, lease_until: until }).where('job_leases.lease_until', '<=', now))
        .returning('name')
        .executeTakeFirst();
      if (taken) return null;
      const held = await db.selectFrom('job_leases').select('lease_until').where('name', '=', name).executeTakeFirst();
      // Released between the two statements: due now.
      return held?.lease_until ?? now;
    },

    /** Ends a run this owner holds: the lease now lasts until the next run is due. */
    async finish(name: string, owner: string, nextAt: number, succeededAt: number | null): Promise<void> {
      await db
        .updateTable('job_leases')
        .set((eb) => ({
          lease_until: nextAt,
          last_success_at: succeededAt === null ? eb.ref('last_success_at') : succeededAt,
        }))
        .where('name', '=', name)
        .where('owner', '=', owner)
        .execute();
    },
  };
}
