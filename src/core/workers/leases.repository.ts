// The leases of "only one instance does this": one row per name (job_leases) for the workers
// that run once across instances, claimed as rows are (rowClaim).
import type { Executor } from '../db/connection.js';
import { rowClaim } from '../db/predicates.js';

export function leasesRepository(db: Executor) {
  return {
    /**
     * Takes the lease of `name` until `until` when nobody holds it (and, if `scheduled`, a run is due),
     * in one conditional upsert. Returns null when taken, else the row.
     */
    async take(name: string, owner: string, now: number, until: number, scheduled: boolean) {
      const taken = await db
        .insertInto('job_leases')
        .values({ name, owner, started_at: now, lease_until: until, next_run_at: null, last_success_at: null })
        .onConflict((oc) =>
          oc
            .column('name')
            .doUpdateSet({ owner, started_at: now, lease_until: until })
            .where((eb) =>
              eb.and([
                rowClaim.lapsedIn('job_leases.lease_until', now),
                // The last run held the work until its next one was due: the same rule as a claim's end.
                ...(scheduled ? [rowClaim.lapsedIn('job_leases.next_run_at', now)] : []),
              ]),
            ),
        )
        .returning('name')
        .executeTakeFirst();
      if (taken) return null;
      const held = await db
        .selectFrom('job_leases')
        .select(['started_at', 'lease_until', 'next_run_at'])
        .where('name', '=', name)
        .executeTakeFirst();
      // Released between the two statements: due now.
      return held ?? { started_at: now, lease_until: now, next_run_at: null };
    },

    /** Extends the lease while `owner` holds it; false when it is not theirs any more. */
    async renew(name: string, owner: string, until: number): Promise<boolean> {
      const r = await db
        .updateTable('job_leases')
        .set({ lease_until: until })
        .where('name', '=', name)
        .where('owner', '=', owner)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Ends `owner`'s hold at `now`, with when the next scheduled run is due and the time of a success. */
    async release(name: string, owner: string, now: number, nextRunAt: number | null, succeededAt: number | null): Promise<void> {
      await db
        .updateTable('job_leases')
        .set((eb) => ({
          lease_until: now,
          next_run_at: nextRunAt === null ? eb.ref('next_run_at') : nextRunAt,
          last_success_at: succeededAt === null ? eb.ref('last_success_at') : succeededAt,
        }))
        .where('name', '=', name)
        .where('owner', '=', owner)
        .execute();
    },
  };
}
