import { sql, type Kysely } from 'kysely';
import { backOff } from './back-off.js';
import type { Db } from './connection.js';
import { DatabaseBusyError, isPgRetryable, isSqliteBusy } from './errors.js';
import type { Database } from './schema.js';

/** PostgreSQL aborts one of two transactions that wait on each other; the retry then sees the winner. */
const MAX_PG_ATTEMPTS = 4;

/** How long a SQLite write waits for a write lock another process holds, then 503. */
const SQLITE_LOCK_WAIT_MS = 5_000;

/**
 * Runs fn as one database transaction and resolves once it is durable. Services write through
 * src/services/write.ts, which records what a change causes inside it.
 * - SQLite: BEGIN IMMEDIATE takes the write lock before the first read, so a check inside fn
 *   cannot interleave with another writer. While another process holds the lock, the wait is
 *   between attempts (better-sqlite3 would wait inside the call, stopping every other request),
 *   up to 5 s, then DatabaseBusyError (503).
 * - PostgreSQL: run again from the start when PostgreSQL aborts it as a deadlock or serialization
 *   failure (fn only touches the database, so running it again is safe).
 */
export async function transaction<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  const deadline = Date.now() + SQLITE_LOCK_WAIT_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return db.dialect === 'sqlite' ? await sqliteImmediate(db, fn) : await db.kysely.transaction().execute(fn);
    } catch (err) {
      if (err instanceof LockHeld) {
        if (Date.now() >= deadline) throw new DatabaseBusyError(err.cause);
      } else if (isPgRetryable(err)) {
        if (attempt >= MAX_PG_ATTEMPTS) throw new DatabaseBusyError(err);
      } else throw err;
      await backOff(attempt);
    }
  }
}

/** BEGIN IMMEDIATE found the write lock held by another connection. */
class LockHeld extends Error {}

async function sqliteImmediate<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.kysely.connection().execute(async (conn) => {
    // Asked not to wait: the connection's busy timeout (5 s) would wait inside the call.
    await sql`PRAGMA busy_timeout = 0`.execute(conn);
    try {
      await sql`BEGIN IMMEDIATE`.execute(conn);
    } catch (err) {
      throw isSqliteBusy(err) ? new LockHeld('write lock held', { cause: err }) : err;
    } finally {
      await sql`PRAGMA busy_timeout = 5000`.execute(conn);
    }
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

/**
 * Runs several reads against one snapshot of the database, so a commit landing between them
 * cannot pair new rows of one table with old rows of another. SQLite (WAL) takes the snapshot
 * at the first read of a deferred transaction; PostgreSQL needs REPEATABLE READ for it.
 */
export async function readSnapshot<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  const trx = db.kysely.transaction();
  return (db.dialect === 'postgres' ? trx.setIsolationLevel('repeatable read').setAccessMode('read only') : trx).execute(fn);
}
