// The bookings section of an import file.
import { MAX_CALLSIGN_LENGTH, MAX_CID, MAX_SOURCE_LENGTH, MIN_SOURCE_LENGTH, SOURCE_PATTERN } from '../../../core/domain/limits.js';
import { parseYmdHis } from '../../../core/domain/time.js';
import { type Obj, bool, fail, gives, instant, int, notNull, nullableStr, record, reqStr } from './fields.js';
import type { BookingTag, ImportBooking } from './plan.js';
import { preview } from './quote.js';

const BOOKING_FIELDS = [
  'id',
  'user_id',
  'callsign',
  'time_start',
  'time_end',
  'tag',
  'source',
  'training',
  'exam',
  'event',
  'training_forced',
  'deleted',
  'network_booking',
  'created_at',
  'updated_at',
  'revision',
] as const;

/**
 * Highest booking id an import may give. Ids are 32-bit (the API takes ids up to 2^31 - 1) and
 * new bookings are numbered after the highest imported id, so the rest is left for them.
 */
export const MAX_IMPORTED_BOOKING_ID = 2_000_000_000;
/** A revision is a 32-bit integer column. */
const MAX_REVISION = 2_147_483_647;

function bookingId(o: Obj, path: string): number | null {
  const v = o.id;
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_IMPORTED_BOOKING_ID) {
    return fail(
      `${path}.id`,
      `must be an integer from 1 to ${MAX_IMPORTED_BOOKING_ID} (higher ids are left for bookings made after the import)`,
    );
  }
  return v;
}

export function parseBooking(b: unknown, path: string): ImportBooking {
  const o = record(b, path, BOOKING_FIELDS);
  const set: ImportBooking['set'] = {};
  for (const key of ['time_start', 'time_end'] as const) {
    if (!gives(o, key)) continue;
    notNull(o, key, path);
    const ms = typeof o[key] === 'string' ? parseYmdHis(o[key]) : null;
    if (ms === null) fail(`${path}.${key}`, `must be "Y-m-d H:i:s" such as "2026-12-01 10:00:00" (got ${preview(o[key])})`);
    set[key] = ms!;
  }
  if (set.time_start !== undefined && set.time_end !== undefined && set.time_end <= set.time_start)
    fail(`${path}.time_end`, 'must be after time_start');
  if (gives(o, 'tag')) {
    const tag = o.tag;
    if (tag !== null && tag !== 1 && tag !== 2 && tag !== 3) fail(`${path}.tag`, 'must be 1 (training), 2 (exam), 3 (event) or null');
    set.tag = tag as BookingTag | null;
  }
  if (gives(o, 'source')) {
    const source = (nullableStr(o, 'source', path) ?? 'CC').toUpperCase();
    if (!SOURCE_PATTERN.test(source))
      fail(`${path}.source`, `must be ${MIN_SOURCE_LENGTH}-${MAX_SOURCE_LENGTH} characters of A-Z, 0-9, _ and -`);
    set.source = source;
  }
  const id = bookingId(o, path);
  if (gives(o, 'user_id')) {
    notNull(o, 'user_id', path);
    set.user_id = int(o, 'user_id', path, 1, MAX_CID);
  }
  if (gives(o, 'callsign')) {
    notNull(o, 'callsign', path);
    set.callsign = reqStr(o, 'callsign', path, MAX_CALLSIGN_LENGTH).toUpperCase();
  }
  if (gives(o, 'deleted')) set.deleted = bool(o, 'deleted', path);
  if (gives(o, 'network_booking')) set.network_booking = nullableStr(o, 'network_booking', path);
  // What a lossless copy needs (an export writes them): each wins over tag.
  for (const flag of ['training', 'exam', 'event', 'training_forced'] as const) if (gives(o, flag)) set[flag] = bool(o, flag, path);
  if (set.training_forced === true && set.training !== true) fail(`${path}.training_forced`, 'must be false unless training is true');
  for (const key of ['created_at', 'updated_at'] as const) {
    if (!gives(o, key)) continue;
    notNull(o, key, path);
    set[key] = instant(o, key, path, false)!;
  }
  // How often it changed (the calendar's SEQUENCE); null: 0.
  if (gives(o, 'revision')) set.revision = o.revision === null ? 0 : int(o, 'revision', path, 0, MAX_REVISION);
  return { id, set, path };
}
