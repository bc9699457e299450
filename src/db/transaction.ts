import { sql, type Kysely } from 'kysely';
import { backOff } from './back-off.js';
import type { Db } from './connection.js';
import { DatabaseBusyError, isPgRetryable } from './errors.js';
import { groupCommit } from './group-commit.js';
import type { Database } from './schema.js';

/** PostgreSQL aborts one of two transactions that wait on each other; the retry then sees the winner. */
const MAX_PG_ATTEMPTS = 4;

/**
 * Runs fn as one atomic write and resolves once it is durable. On PostgreSQL fn is its own
 * transaction, run again from the start when PostgreSQL aborts it as a deadlock or serialization
 * failure (fn only touches the database, so running it again is safe).
 *
 * On SQLite, writes that arrive together share one transaction (group commit, in
 * src/db/group-commit.ts): each runs in a savepoint of its own and all are acknowledged after the
 * single COMMIT. The transaction begins IMMEDIATE: the write lock is taken before the first read,
 * so a check-then-write inside fn cannot interleave with another writer.
 */
export async function writeTransaction<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  if (db.dialect !== 'postgres') return groupCommit(db, fn);
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

/**
 * Runs several reads against one snapshot of the database, so a commit landing between them
 * cannot pair new rows of one table with old rows of another. SQLite (WAL) takes the snapshot
 * at the first read of a deferred transaction; PostgreSQL needs REPEATABLE READ for it.
 */
export async function readSnapshot<T>(db: Db, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  const trx = db.kysely.transaction();
  return (db.dialect === 'postgres' ? trx.setIsolationLevel('repeatable read').setAccessMode('read only') : trx).execute(fn);
}
