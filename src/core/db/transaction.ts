import type { Kysely } from 'kysely';
import { backOff } from './back-off.js';
import type { Db } from './connection.js';
import { DatabaseBusyError, isPgRetryable, isSqliteBusy } from './errors.js';
import type { Database } from './schema.js';

/** PostgreSQL aborts one of two transactions that wait on each other; the retry then sees the winner. */
const MAX_PG_ATTEMPTS = 4;

/** How long a SQLite write waits for a write lock another process holds, then 503. */
const SQLITE_LOCK_WAIT_MS = 5_000;

/**
 * Runs fn as one transaction (services write through src/core/write.ts). SQLite: BEGIN IMMEDIATE,
 * waiting between attempts (not inside better-sqlite3, which would block every request) up to 5 s,
 * then DatabaseBusyError. PostgreSQL: fn runs again on a deadlock or serialization failure.
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
  const control = db.sqlite!;
  // The connection is this call's alone until fn's promise settles (Kysely holds it for us).
  return db.kysely.connection().execute(async (conn) => {
    try {
      control.beginImmediate();
    } catch (err) {
      throw isSqliteBusy(err) ? new LockHeld('write lock held', { cause: err }) : err;
    }
    try {
      const result = await fn(conn);
      control.commit();
      return result;
    } catch (err) {
      try {
        control.rollback();
      } catch {
        // SQLite ended the transaction itself (a full disk, say): nothing is left to roll back.
      }
      throw err;
    }
  });
}

/** Several reads against one snapshot, so a commit between them cannot mix new and old rows (PostgreSQL needs REPEATABLE READ). */
export async function readSnapshot<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  const trx = db.kysely.transaction();
  return (db.dialect === 'postgres' ? trx.setIsolationLevel('repeatable read').setAccessMode('read only') : trx).execute(fn);
}
