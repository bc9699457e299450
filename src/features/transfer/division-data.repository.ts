import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database } from '../../core/db/schema.js';

/**
 * Inside a write: whether users or bookings exist. PostgreSQL locks the users table against other
 * writers first, so two transactions cannot both find it empty and fill it.
 */
async function holdsDivisionDataLocked(db: Kysely<Database>, dialect: Dialect): Promise<boolean> {
  if (dialect === 'postgres') await sql`LOCK TABLE users IN SHARE ROW EXCLUSIVE MODE`.execute(db);
  return hasDivisionData(db);
}

/** True when the database already holds users or bookings (a demo must not be mixed into real data). */
async function hasDivisionData(db: Kysely<Database>): Promise<boolean> {
  const user = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  const booking = await db.selectFrom('bookings').select('id').limit(1).executeTakeFirst();
  return user !== undefined || booking !== undefined;
}

/** True when users exist and every one of them is among `ids` (a demo division loaded, and nothing else). */
async function holdsOnlyUsers(db: Kysely<Database>, ids: readonly number[]): Promise<boolean> {
  const any = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  if (any === undefined || ids.length === 0) return false;
  const other = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'not in', [...ids])
    .limit(1)
    .executeTakeFirst();
  return other === undefined;
}

export function divisionDataRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    holdsDataLocked: () => holdsDivisionDataLocked(db, dialect),
    hasData: () => hasDivisionData(db),
    holdsOnlyUsers: (ids: readonly number[]) => holdsOnlyUsers(db, ids),
  };
}

export type DivisionDataRepository = ReturnType<typeof divisionDataRepository>;
