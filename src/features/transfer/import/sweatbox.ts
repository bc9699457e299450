// The sweatbox section of an import file (contract §23): sessions on the training server's
// positions, by (callsign, time_start), 15 minutes to 8 hours, notes up to 255 characters.
import { MAX_CALLSIGN_LENGTH, MAX_CID } from '../../../core/domain/limits.js';
import { parseYmdHis } from '../../../core/domain/time.js';
import { NOTES_MAX, SESSION_MAX_MS, SESSION_MIN_MS } from '../../sweatbox/index.js';
import { type Obj, fail, gives, instant, int, record, refuseNul, reqStr } from './fields.js';
import type { ImportSweatboxSession } from './plan.js';
import { preview } from './quote.js';

const SESSION_FIELDS = ['callsign', 'time_start', 'time_end', 'user_id', 'notes', 'created_at', 'updated_at'] as const;

function time(o: Obj, key: string, path: string): number {
  const v = o[key];
  if (v === undefined || v === null) return fail(`${path}.${key}`, 'is required');
  const ms = typeof v === 'string' ? parseYmdHis(v) : null;
  if (ms === null) return fail(`${path}.${key}`, `must be "Y-m-d H:i:s" such as "2026-12-01 10:00:00" (got ${preview(v)})`);
  return ms;
}

export function parseSweatboxSession(s: unknown, path: string): ImportSweatboxSession {
  const o = record(s, path, SESSION_FIELDS);
  const callsign = reqStr(o, 'callsign', path, MAX_CALLSIGN_LENGTH).toUpperCase();
  const start = time(o, 'time_start', path);
  const end = time(o, 'time_end', path);
  if (end - start < SESSION_MIN_MS || end - start > SESSION_MAX_MS)
    fail(`${path}.time_end`, 'must be 15 minutes to 8 hours after time_start');
  // Notes may be empty (none): the one string of the format that may.
  const notes = o.notes === undefined || o.notes === null ? '' : o.notes;
  if (typeof notes !== 'string') fail(`${path}.notes`, 'must be a string');
  refuseNul(notes as string, `${path}.notes`);
  if ((notes as string).trim().length > NOTES_MAX) fail(`${path}.notes`, `must be at most ${NOTES_MAX} characters`);
  const createdAt = gives(o, 'created_at') ? instant(o, 'created_at', path, true) : null;
  return {
    callsign,
    time_start: start,
    time_end: end,
    user_id: int(o, 'user_id', path, 1, MAX_CID),
    notes: (notes as string).trim(),
    created_at: createdAt,
    updated_at: gives(o, 'updated_at') ? (instant(o, 'updated_at', path, true) ?? createdAt) : createdAt,
    path,
  };
}
