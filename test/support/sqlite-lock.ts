// Another connection holding SQLite's write lock, as an operator's shell or a second process may:
// the server's writes wait for it, then give up with 503.
import SQLite from 'better-sqlite3';

/** Runs fn while another connection holds the exclusive lock on the database file; releases it after. */
export async function whileLocked<T>(file: string, fn: () => Promise<T>): Promise<T> {
  const locker = new SQLite(file);
  locker.exec('BEGIN EXCLUSIVE');
  try {
    return await fn();
  } finally {
    locker.exec('ROLLBACK');
    locker.close();
  }
}
