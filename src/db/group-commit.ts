// Group commit on SQLite: writes that arrive in the same event-loop turn share one transaction.
// With synchronous=FULL a commit waits for the disk; sharing it is what lets many clients write at
// once. While another process holds the write lock (a long import), the wait happens between
// attempts, off the event loop; better-sqlite3 would otherwise block every request for it.
import { sql, type Kysely } from 'kysely';
import { backOff } from './back-off.js';
import type { Db } from './connection.js';
import { DatabaseBusyError, isSqliteBusy } from './errors.js';
import type { Database } from './schema.js';

/** How long a SQLite write keeps trying while another process holds the lock. */
const RETRY_BUDGET_MS = 5_000;
/**
 * How long BEGIN IMMEDIATE itself may wait for the lock. better-sqlite3 waits synchronously,
 * stopping every other request; longer waits happen between attempts instead.
 */
const SQLITE_LOCK_WAIT_MS = 20;
/** The connection's wait for its other statements (src/db/connection.ts). */
const SQLITE_DEFAULT_WAIT_MS = 5_000;
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
      this.start();
    });
  }

  private start(): void {
    if (!this.draining) {
      this.draining = true;
      void this.drain();
    }
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

/**
 * Runs fn in the next shared transaction of this database: in a savepoint of its own, so a
 * failing write undoes only its own changes; resolves after the single durable COMMIT.
 */
export function groupCommit<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  let queue = queues.get(db);
  if (!queue) queues.set(db, (queue = new SqliteWriteQueue(db)));
  return queue.run(fn);
}
