// Online backup of a SQLite database with SQLite's backup API, from a connection of its own, while
// the server goes on writing (WAL mode: the backup reads one snapshot, writers are not blocked).
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';

export interface BackupResult {
  bytes: number;
  /** Every booking in the copy, deleted ones included (kept for the calendar's cancellations and the export). */
  bookings: number;
  /** Of those, how many are deleted. */
  deleted: number;
}

export class BackupError extends Error {}

/** Pages per step: all of them. A backup taken in small steps restarts whenever another connection writes in between, and under a steady writer might never finish. */
const ALL_PAGES = 0x7fffffff;

/**
 * Copies the database to a temporary file beside `target`, checks it (integrity_check), then renames
 * it into place: a failed backup never leaves a partial file under the target's name.
 */
export async function backupSqlite(source: string, target: string, replace: boolean): Promise<BackupResult> {
  if (!fs.existsSync(source)) throw new BackupError(`no SQLite database at ${source}`);
  const dir = path.dirname(path.resolve(target));
  if (!fs.existsSync(dir)) throw new BackupError(`the folder ${dir} does not exist`);
  checkTarget(source, target, replace);
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

  let counts: { bookings: number; deleted: number };
  try {
    counts = verify(temporary);
    const fd = fs.openSync(temporary, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    // Again: the backup took a while, and the target may have changed meanwhile.
    checkTarget(source, target, replace);
    fs.renameSync(temporary, target);
  } catch (err) {
    removeQuietly(temporary);
    throw err instanceof BackupError ? err : new BackupError(`cannot write ${target}: ${(err as Error).message}`);
  }
  return { bytes: fs.statSync(target).size, ...counts };
}

/** The files SQLite keeps beside a database: writing over any of them corrupts it. */
const COMPANIONS = ['', '-wal', '-shm', '-journal'];

/**
 * Refuses a target that is the live database or a companion file (by path, link or inode), or that
 * is not a regular file, which the rename would replace. A regular file is replaced only with `replace`.
 */
function checkTarget(source: string, target: string, replace: boolean): void {
  const resolved = path.join(fs.realpathSync(path.dirname(path.resolve(target))), path.basename(target));
  // SQLite names the companions after the database's real path (it follows symbolic links).
  const live = [...new Set([path.resolve(source), fs.realpathSync(source)])].flatMap((db) => COMPANIONS.map((c) => db + c));
  const liveNodes = live.flatMap((f) => {
    const st = statOrNull(f);
    return st ? [st] : [];
  });
  const itself = lstatOrNull(resolved);
  const reached = statOrNull(resolved);
  if (
    live.includes(resolved) ||
    (reached !== null &&
      (live.includes(fs.realpathSync(resolved)) || liveNodes.some((n) => n.dev === reached.dev && n.ino === reached.ino)))
  ) {
    throw new BackupError(`${target} is the live database or one of its files (-wal, -shm, -journal); write the copy somewhere else`);
  }
  if (itself === null) return;
  if (itself.isSymbolicLink())
    throw new BackupError(`${target} is a symbolic link; name the file itself (only a regular file is replaced, with --force)`);
  if (!itself.isFile())
    throw new BackupError(`${target} is ${kind(itself)}, not a regular file; only a regular file is replaced, with --force`);
  if (!replace) throw new BackupError(`${target} already exists; choose another file or pass --force to replace it`);
}

function kind(st: fs.Stats): string {
  if (st.isDirectory()) return 'a directory';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

function statOrNull(file: string): fs.Stats | null {
  try {
    return fs.statSync(file);
  } catch {
    return null;
  }
}

function lstatOrNull(file: string): fs.Stats | null {
  try {
    return fs.lstatSync(file);
  } catch {
    return null;
  }
}

/** integrity_check must return exactly "ok"; returns the copy's number of bookings, and of deleted ones. */
function verify(file: string): { bookings: number; deleted: number } {
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
    if (!hasBookings) return { bookings: 0, deleted: 0 };
    const row = copy.prepare('SELECT count(*) AS bookings, coalesce(sum(deleted <> 0), 0) AS deleted FROM bookings').get() as {
      bookings: number;
      deleted: number;
    };
    return row;
  } finally {
    copy.close();
  }
}

function removeQuietly(file: string): void {
  for (const f of [file, `${file}-wal`, `${file}-shm`]) fs.rmSync(f, { force: true });
}
