import type { Kysely } from 'kysely';
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
      return await db.kysely.transaction().execute(fn);
    } catch (err) {
      if (!isPgRetryable(err)) throw err;
      if (attempt >= MAX_PG_ATTEMPTS) throw new DatabaseBusyError(err);
      await backOff(attempt);
    }
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
