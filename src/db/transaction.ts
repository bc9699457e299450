import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Db } from './connection.js';
import type { Database } from './schema.js';

/** How long a write keeps retrying while another process holds the lock or PostgreSQL aborts it. */
const RETRY_BUDGET_MS = 5_000;
/** PostgreSQL aborts one of two transactions that wait on each other; the retry then sees the winner. */
const MAX_PG_ATTEMPTS = 4;
/**
 * How long BEGIN IMMEDIATE itself may wait for the lock. better-sqlite3 waits synchronously,
 * stopping every other request; longer waits happen between attempts instead.
 */
const SQLITE_LOCK_WAIT_MS = 20;
/** The connection's wait for its other statements (src/db/connection.ts). */
const SQLITE_DEFAULT_WAIT_MS = 5_000;

/** The database could not take the write in time (another process holds it); the request changed nothing. */
export class DatabaseBusyError extends Error {
  /** The database's own code for the last refusal (SQLITE_BUSY, 40P01, …), for the logs. */
  readonly code: string | undefined;
  constructor(cause: unknown) {
    super('the database is busy: another process is writing to it; try again shortly', { cause });
    const code = (cause as { code?: unknown })?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/**
 * Runs fn in one write transaction, retried from the start when the database refuses it for
 * reasons of timing only (fn must therefore be safe to run again: it is, as it only touches the
 * database). On SQLite it begins IMMEDIATE: the write lock is taken before the first read, so a
 * check-then-write inside fn cannot interleave with another writer and never fails on a lock
 * upgrade. While another process holds that lock (a long import), the wait happens between
 * attempts, off the event loop; better-sqlite3 would otherwise block every request for it.
 */
export async function writeTransaction<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  const deadline = Date.now() + RETRY_BUDGET_MS;
  for (let attempt = 1; ; attempt++) {
    try {
      return db.dialect === 'postgres' ? await db.kysely.transaction().execute(fn) : await sqliteImmediate(db, fn);
    } catch (err) {
      if (!(db.dialect === 'postgres' ? isPgRetryable(err) : isSqliteBusy(err))) throw err;
      if (Date.now() >= deadline || (db.dialect === 'postgres' && attempt >= MAX_PG_ATTEMPTS)) throw new DatabaseBusyError(err);
      // Jittered and growing, so two retrying writers do not meet again in step.
      await sleep(Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random()));
    }
  }
}

async function sqliteImmediate<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.kysely.connection().execute(async (conn) => {
    db.setLockWait(SQLITE_LOCK_WAIT_MS);
    try {
      await sql`BEGIN IMMEDIATE`.execute(conn);
    } finally {
      db.setLockWait(SQLITE_DEFAULT_WAIT_MS);
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

/** SQLITE_BUSY and its extended codes: another connection holds the lock. */
export function isSqliteBusy(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** Deadlock (40P01) or serialization failure (40001): PostgreSQL asks for the transaction to be run again. */
function isPgRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return code === '40P01' || code === '40001';
}

/** True when err is the database refusing two live bookings that overlap on one position. */
export function isBookingOverlap(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string };
  return e?.code === '23P01' || (typeof e?.message === 'string' && e.message.includes('bookings_no_overlap'));
}
