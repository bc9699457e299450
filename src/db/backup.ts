// Online backup of a SQLite database with SQLite's backup API, from a connection of its own, while
// the server goes on writing (WAL mode: the backup reads one snapshot, writers are not blocked).
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export interface BackupResult {
  bytes: number;
  bookings: number;
}

export class BackupError extends Error {}

/** Pages per step: all of them. A backup taken in small steps restarts whenever another connection writes in between, and under a steady writer might never finish. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the database at `source` to `target` (which must not exist unless `replace`), checks the
 * copy (PRAGMA integrity_check) and only then puts it in place: the copy is written to a temporary
 * file beside the target and renamed, so a failed or interrupted backup never leaves a partial file
 * under the target's name.
 */
export async function backupSqlite(source: string, target: string, replace: boolean): Promise<BackupResult> {
  if (!fs.existsSync(source)) throw new BackupError(`no SQLite database at ${source}`);
  if (!replace && fs.existsSync(target))
    throw new BackupError(`${target} already exists; choose another file or pass --force to replace it`);
  const dir = path.dirname(path.resolve(target));
  if (!fs.existsSync(dir)) throw new BackupError(`the folder ${dir} does not exist`);
  const temporary = path.join(dir, `.${path.basename(target)}.${process.pid}.tmp`);

  const db = new SQLite(source, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    await db.backup(temporary, { progress: () => ALL_PAGES });
  } catch (err) {
    removeQuietly(temporary);
    throw new BackupError(`backup failed: ${(err as Error).message}`);
  } finally {
    db.close();
  }

  let bookings: number;
  try {
    bookings = verify(temporary);
    const fd = fs.openSync(temporary, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temporary, target);
  } catch (err) {
    removeQuietly(temporary);
    throw err instanceof BackupError ? err : new BackupError(`cannot write ${target}: ${(err as Error).message}`);
  }
  return { bytes: fs.statSync(target).size, bookings };
}

/** integrity_check must answer exactly "ok"; returns the copy's number of bookings. */
function verify(file: string): number {
  const copy = new SQLite(file, { fileMustExist: true });
  try {
    const problems = copy.pragma('integrity_check', { simple: false }) as Array<{ integrity_check: string }>;
    if (problems.length !== 1 || problems[0]!.integrity_check !== 'ok') {
      throw new BackupError(
        `the copy failed PRAGMA integrity_check: ${problems
          .map((p) => p.integrity_check)
          .slice(0, 3)
          .join('; ')}`,
      );
    }
    const hasBookings = copy.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'bookings'").get() !== undefined;
    return hasBookings ? (copy.prepare('SELECT count(*) FROM bookings').pluck().get() as number) : 0;
  } finally {
    copy.close();
  }
}

function removeQuietly(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
}
