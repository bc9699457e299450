// Sweatbox sessions of an import (contract §23), by (callsign, time_start): a new one is added, a
// stored one keeps its id and takes the file's end, booker, notes and times. Sessions of one position never overlap:
// checked here as they will be after the whole file (naming the record), and by the database.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { chunks } from '../../core/db/chunks.js';
import { ymdHis } from '../../core/domain/time.js';
import { ImportError, type ImportSweatboxSession } from './import/plan.js';
import { refuseUnknownUsers } from './import-refs.repository.js';
import { keyOf } from './import-rows.repository.js';

interface Slot {
  position_id: number;
  time_start: number;
  time_end: number;
  /** The record's path; null: a stored session. */
  path: string | null;
  id: number | null;
}

export async function importSweatbox(
  db: Kysely<Database>,
  sessions: readonly ImportSweatboxSession[],
  positionId: (callsign: string, path: string) => number,
  now: number,
): Promise<void> {
  if (sessions.length === 0) return;
  const positions = sessions.map((s) => positionId(s.callsign, `${s.path}.callsign`));
  await refuseUnknownUsers(
    db,
    sessions.map((s) => ({ id: s.user_id, path: `${s.path}.user_id` })),
  );
  const stored: Slot[] = [];
  for (const part of chunks([...new Set(positions)])) {
    const rows = await db
      .selectFrom('sweatbox_sessions')
      .select(['id', 'position_id', 'time_start', 'time_end'])
      .where('position_id', 'in', part)
      .execute();
    for (const r of rows) stored.push({ position_id: r.position_id, time_start: r.time_start, time_end: r.time_end, path: null, id: r.id });
  }
  const storedId = new Map(stored.map((s) => [keyOf([s.position_id, s.time_start]), s.id!]));
  const ids = sessions.map((s, i) => storedId.get(keyOf([positions[i], s.time_start])) ?? null);
  refuseOverlaps(sessions, positions, ids, stored);

  const row = (s: ImportSweatboxSession, i: number) => ({
    position_id: positions[i]!,
    user_id: s.user_id,
    time_start: s.time_start,
    time_end: s.time_end,
    notes: s.notes,
    created_at: s.created_at ?? now,
    updated_at: s.updated_at ?? s.created_at ?? now,
  });
  // A stored session is written again under its id (SQLite's overlap trigger would see an upsert's
  // row meet itself); the whole file's sessions were checked against each other above.
  const changed = sessions.flatMap((s, i) => (ids[i] === null ? [] : [{ id: ids[i]!, ...row(s, i) }]));
  for (const part of chunks(changed.map((c) => c.id))) await db.deleteFrom('sweatbox_sessions').where('id', 'in', part).execute();
  for (const part of chunks(changed)) await db.insertInto('sweatbox_sessions').values(part).execute();
  const fresh = sessions.flatMap((s, i) => (ids[i] === null ? [row(s, i)] : []));
  for (const part of chunks(fresh)) await db.insertInto('sweatbox_sessions').values(part).execute();
}

/** Refuses a record whose session would overlap another of its position, in the file or stored. */
function refuseOverlaps(sessions: readonly ImportSweatboxSession[], positions: number[], ids: Array<number | null>, stored: Slot[]): void {
  const replaced = new Set(ids.filter((id) => id !== null));
  const slots: Slot[] = [
    ...stored.filter((s) => !replaced.has(s.id!)),
    ...sessions.map((s, i) => ({ position_id: positions[i]!, time_start: s.time_start, time_end: s.time_end, path: s.path, id: null })),
  ].sort((a, b) => a.position_id - b.position_id || a.time_start - b.time_start);
  for (let i = 1; i < slots.length; i++) {
    const [a, b] = [slots[i - 1]!, slots[i]!];
    if (a.position_id !== b.position_id || a.time_end <= b.time_start) continue;
    // Stored sessions never overlap each other: one of the two is the file's.
    const [mine, theirs] = b.path !== null ? [b, a] : [a, b];
    const callsign = sessions.find((s) => s.path === mine.path)!.callsign;
    throw new ImportError(
      `${mine.path}: overlaps ${theirs.path ?? 'a stored session'} of ${callsign} (${ymdHis(theirs.time_start)} to ${ymdHis(theirs.time_end)})`,
    );
  }
}
