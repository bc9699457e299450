import { setTimeout as sleep } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Db } from './connection.js';
import type { Database } from './schema.js';

/** How long a SQLite write keeps trying while another process holds the lock. */
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
    const code = (cause as { code?: unknown } | null | undefined)?.code;
    this.code = typeof code === 'string' ? code : undefined;
  }
}

/**
 * Runs fn as one atomic write and resolves once it is durable. On PostgreSQL fn is its own
 * transaction, run again from the start when PostgreSQL aborts it as a deadlock or serialization
 * failure (fn only touches the database, so running it again is safe).
 *
 * On SQLite, writes that arrive together share one transaction (group commit): each runs in a
 * savepoint of its own, so a failing one undoes only its own changes, and all are acknowledged
 * after the single COMMIT. With synchronous=FULL a commit waits for the disk; sharing it is what
 * lets many clients write at once. The transaction begins IMMEDIATE: the write lock is taken
 * before the first read, so a check-then-write inside fn cannot interleave with another writer.
 * While another process holds that lock (a long import), the wait happens between attempts, off
 * the event loop; better-sqlite3 would otherwise block every request for it.
 */
export async function writeTransaction<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.dialect !== 'postgres') return sqliteWrites(db).run(fn);
  for (let attempt = 1; ; attempt++) {
    try {
      return await pgOwnTransaction(db, fn);
    } catch (err) {
      if (!isPgRetryable(err)) throw err;
      if (attempt >= MAX_PG_ATTEMPTS) throw new DatabaseBusyError(err);
      await backOff(attempt);
    }
  }
}

/**
 * A PostgreSQL transaction registered as this process's own before it can end (see
 * SnapshotEpochs): its commit invalidates only the caches its caller bumps. If its outcome is
 * unknown (it failed, possibly in COMMIT), it is disowned, so that its end counts as anyone's.
 */
async function pgOwnTransaction<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  const epochs = db.snapshotEpochs;
  const registered: number[] = [];
  try {
    return await db.kysely.transaction().execute(async (trx) => {
      if (epochs) {
        const row = (await sql<{ xid: string }>`SELECT pg_current_xact_id()::text AS xid`.execute(trx)).rows[0]!;
        registered.push(Number(row.xid));
        epochs.registerOwn(Number(row.xid));
      }
      return fn(trx);
    });
  } catch (err) {
    for (const xid of registered) epochs?.disown(xid);
    throw err;
  }
}

/** Jittered and growing, so two retrying writers do not meet again in step. */
const backOff = (attempt: number) => sleep(Math.min(200, 5 * 2 ** attempt) * (0.5 + Math.random()));

/** Writes in one shared transaction at most; a larger queue is committed in several. */
const MAX_GROUP = 64;

interface QueuedWrite {
  fn: (trx: Kysely<Database>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** The queue of one SQLite database's writes, drained one shared transaction at a time. */
class SqliteWriteQueue {
  private readonly queue: QueuedWrite[] = [];
  private draining = false;
  constructor(private readonly db: Db) {}

  run<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (!this.draining) {
        this.draining = true;
        void this.drain();
      }
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        // One turn of the event loop first: requests read from sockets meanwhile join this group.
        await new Promise((resolve) => setImmediate(resolve));
        const group = this.queue.splice(0, MAX_GROUP);
        const outcomes = await this.commitWithRetries(group);
        group.forEach((write, i) => {
          const outcome = outcomes[i]!;
          if (outcome.ok) write.resolve(outcome.value);
          else write.reject(outcome.error);
        });
      }
    } finally {
      this.draining = false;
    }
  }

  /**
   * Commits the group, trying again while another process holds the write lock. The connection
   * is let go between attempts, so reads in this process go on meanwhile.
   */
  private async commitWithRetries(group: QueuedWrite[]): Promise<Outcome[]> {
    const deadline = Date.now() + RETRY_BUDGET_MS;
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.commitGroup(group);
      } catch (err) {
        const lockHeld = err instanceof LockHeld;
        if (lockHeld && Date.now() < deadline) {
          await backOff(attempt);
          continue;
        }
        // Nothing of the group was committed.
        const error = lockHeld ? new DatabaseBusyError(err.cause) : err;
        return group.map(() => ({ ok: false, error }));
      }
    }
  }

  /** Runs each write in its own savepoint of one transaction; throws when nothing was committed. */
  private async commitGroup(group: QueuedWrite[]): Promise<Outcome[]> {
    return this.db.kysely.connection().execute(async (conn) => {
      await this.begin(conn);
      const outcomes: Outcome[] = [];
      try {
        for (const write of group) {
          await sql`SAVEPOINT write`.execute(conn);
          try {
            outcomes.push({ ok: true, value: await write.fn(conn) });
          } catch (error) {
            // If SQLite already rolled the whole transaction back, this throws, and so does the group.
            await sql`ROLLBACK TO write`.execute(conn);
            outcomes.push({ ok: false, error });
          }
          await sql`RELEASE write`.execute(conn);
        }
        await sql`COMMIT`.execute(conn);
        return outcomes;
      } catch (err) {
        await sql`ROLLBACK`.execute(conn).catch(() => {});
        throw err;
      }
    });
  }

  /** BEGIN IMMEDIATE, waiting only briefly: LockHeld when another process holds the lock. */
  private async begin(conn: Kysely<Database>): Promise<void> {
    this.db.setLockWait(SQLITE_LOCK_WAIT_MS);
    try {
      await sql`BEGIN IMMEDIATE`.execute(conn);
    } catch (err) {
      throw isSqliteBusy(err) ? new LockHeld(err) : err;
    } finally {
      this.db.setLockWait(SQLITE_DEFAULT_WAIT_MS);
    }
  }
}

/** BEGIN IMMEDIATE found the write lock held by another connection. */
class LockHeld extends Error {
  constructor(cause: unknown) {
    super('write lock held', { cause });
  }
}

const queues = new WeakMap<Db, SqliteWriteQueue>();
function sqliteWrites(db: Db): SqliteWriteQueue {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new SqliteWriteQueue(db)));
  return queue;
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
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/** Deadlock (40P01) or serialization failure (40001): PostgreSQL asks for the transaction to be run again. */
export function isPgRetryable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return code === '40P01' || code === '40001';
}

/** True when err is the database refusing two live bookings that overlap on one position. */
export function isBookingOverlap(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; message?: string } | null | undefined;
  return e?.code === '23P01' || (typeof e?.message === 'string' && e.message.includes('bookings_no_overlap'));
}
