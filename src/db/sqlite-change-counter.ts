// Whether another connection committed to a SQLite database, asked once per event-loop turn by
// every cached answer (db/freshness.ts), so it must cost next to nothing.
import fs from 'node:fs';
import type SQLite from 'better-sqlite3';

/** The wal-index header (https://www.sqlite.org/walformat.html): its first copy, 48 bytes. */
const HEADER_BYTES = 48;
/** The header's iVersion field, in the machine's byte order (3007000). */
const WAL_INDEX_VERSION = 3007000;

/**
 * PRAGMA data_version, which changes when another connection commits, read only when the WAL's
 * shared-memory header changed since the last read. Every commit, by anyone, rewrites that header
 * before it is visible to readers, so an unchanged header means no commit and the same counter:
 * a read of 48 bytes instead of a statement that takes and releases a read lock. The header is
 * read before the counter, so a commit in between makes the next call read the counter again.
 * Without the -shm file (not WAL, an in-memory database), the counter is read every time.
 */
export function externalChangeCounter(raw: SQLite.Database): { read: () => number; close: () => void } {
  const dataVersion = raw.prepare('PRAGMA data_version').pluck();
  const readCounter = () => dataVersion.get() as number;
  // The pragma has run once, so the -shm file exists by now in WAL mode.
  let counter = readCounter();
  const fd = openShm(raw);
  if (fd === null) return { read: readCounter, close: () => {} };
  const seen = Buffer.alloc(HEADER_BYTES);
  const header = Buffer.alloc(HEADER_BYTES);
  let known = false;
  return {
    read() {
      const n = fs.readSync(fd, header, 0, HEADER_BYTES, 0);
      if (n === HEADER_BYTES && known && header.equals(seen)) return counter;
      counter = readCounter();
      header.copy(seen);
      known = n === HEADER_BYTES;
      return counter;
    },
    close: () => fs.closeSync(fd),
  };
}

/** The database's -shm file, opened for reading, if it is there and holds a wal-index. */
function openShm(raw: SQLite.Database): number | null {
  if (raw.memory) return null;
  let fd: number;
  try {
    fd = fs.openSync(`${fs.realpathSync(raw.name)}-shm`, 'r');
  } catch {
    return null;
  }
  const header = Buffer.alloc(HEADER_BYTES);
  const n = fs.readSync(fd, header, 0, HEADER_BYTES, 0);
  const valid = n === HEADER_BYTES && (header.readUInt32LE(0) === WAL_INDEX_VERSION || header.readUInt32BE(0) === WAL_INDEX_VERSION);
  if (!valid) {
    fs.closeSync(fd);
    return null;
  }
  return fd;
}
