import { sql, type Kysely } from 'kysely';
import type { Db } from './connection.js';
import type { Database } from './schema.js';

/**
 * Runs fn in one write transaction. On SQLite it begins IMMEDIATE: the write lock is taken
 * before the first read, so a check-then-write inside fn cannot interleave with another
 * writer (in this process or another) and never fails on a lock upgrade.
 */
export async function writeTransaction<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.dialect === 'postgres') return db.kysely.transaction().execute(fn);
  return db.kysely.connection().execute(async (conn) => {
    await sql`BEGIN IMMEDIATE`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`COMMIT`.execute(conn);
      return result;
    } catch (err) {
      await sql`ROLLBACK`.execute(conn).catch(() => {});
      throw err;
    }
  });
}

/** True when err is the database refusing two live bookings that overlap on one position. */
export function isBookingOverlap(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  return e?.code === '23P01' || (typeof e?.message === 'string' && e.message.includes('bookings_no_overlap'));
}
