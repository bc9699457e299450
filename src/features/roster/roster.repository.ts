// The roster sync's writes: the users a range of staged rows changes, upserted from the staging
// table by one statement (no row travels through the application), in the caller's transaction.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import type { UserChange } from './domain.js';
import { differsFromUser } from './roster-staging.repository.js';

/**
 * Writes the changes of staged rows in (afterId, lastId]. A field not given keeps its value; a member
 * the network no longer knows loses division and subdivision; suspended or inactive ones are signed out.
 */
async function applyStagedChanges(
  trx: Kysely<Database>,
  runId: string,
  range: { afterId: number; lastId: number },
  changes: readonly UserChange[],
  now: number,
): Promise<void> {
  if (changes.length === 0) return;
  const unknown = sql<boolean>`s.kind = 'unknown'`;
  const personal = sql<boolean>`s.personal = 1`;
  await trx
    .insertInto('users')
    .columns(['id', 'email', 'first_name', 'last_name', 'rating', 'region', 'division', 'subdivision', 'created_at', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('roster_staging as s')
        .leftJoin('users as u', 'u.id', 's.id')
        .select((e) => [
          's.id',
          e.case().when(personal).then(e.ref('s.email')).else(e.ref('u.email')).end().as('email'),
          e.case().when(personal).then(e.ref('s.first_name')).else(e.ref('u.first_name')).end().as('first_name'),
          e.case().when(personal).then(e.ref('s.last_name')).else(e.ref('u.last_name')).end().as('last_name'),
          // A user created from a leaver's record always has a rating: only `unknown` rows lack one.
          e.fn.coalesce('s.rating', 'u.rating').as('rating'),
          e.case().when(unknown).then(e.ref('u.region')).else(e.ref('s.region')).end().as('region'),
          e.case().when(unknown).then(null).else(e.ref('s.division')).end().as('division'),
          e.case().when(unknown).then(null).else(e.ref('s.subdivision')).end().as('subdivision'),
          e.val(now).as('created_at'),
          e.val(now).as('updated_at'),
        ])
        .where('s.run_id', '=', runId)
        .where('s.id', '>', range.afterId)
        .where('s.id', '<=', range.lastId)
        .where(differsFromUser),
    )
    .onConflict((oc) =>
      oc.column('id').doUpdateSet((eb) => ({
        email: eb.ref('excluded.email'),
        first_name: eb.ref('excluded.first_name'),
        last_name: eb.ref('excluded.last_name'),
        rating: eb.ref('excluded.rating'),
        region: eb.ref('excluded.region'),
        division: eb.ref('excluded.division'),
        subdivision: eb.ref('excluded.subdivision'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
  // A member the network suspended or made inactive is signed out everywhere, with the change.
  const barred = changes.filter((c) => c.after.rating !== undefined && c.after.rating <= 0).map((c) => c.id);
  if (barred.length > 0) await trx.deleteFrom('sessions').where('user_id', 'in', barred).execute();
}

export function rosterRepository(db: Kysely<Database>) {
  return {
    applyStagedChanges: (runId: string, range: { afterId: number; lastId: number }, changes: readonly UserChange[], now: number) =>
      applyStagedChanges(db, runId, range, changes, now),
  };
}
