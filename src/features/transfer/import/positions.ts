// The positions section of an import file.
import { MAX_CALLSIGN_LENGTH } from '../../../core/domain/limits.js';
import { RATINGS } from '../../members/domain/ratings.js';
import { fail, gives, notNull, nullableStr, rating, record, reqStr } from './fields.js';
import type { ImportPosition } from './plan.js';
import { preview } from './quote.js';

const POSITION_FIELDS = ['callsign', 'name', 'frequency', 'area', 'rating', 'required_facility'] as const;

const CALLSIGN_RE = /^[A-Z0-9]{2,}(_[A-Z0-9]+)*$/;

export function normaliseFrequency(v: unknown): string | null {
  if (typeof v !== 'string' || !/^\d{3}\.\d{1,3}$/.test(v)) return null;
  const mhz = Number(v);
  if (mhz < 118 || mhz >= 137) return null;
  return mhz.toFixed(3);
}

export function parsePosition(p: unknown, path: string): ImportPosition {
  const o = record(p, path, POSITION_FIELDS);
  const callsign = reqStr(o, 'callsign', path, MAX_CALLSIGN_LENGTH).toUpperCase();
  if (!CALLSIGN_RE.test(callsign)) fail(`${path}.callsign`, `is not a callsign like EKCH_TWR (got ${preview(callsign)})`);
  const set: ImportPosition['set'] = {};
  if (gives(o, 'name')) {
    notNull(o, 'name', path);
    set.name = reqStr(o, 'name', path);
  }
  if (gives(o, 'frequency')) {
    notNull(o, 'frequency', path);
    // "" is a position whose frequency is not known (moved from Control Center, §19).
    const frequency = o.frequency === '' ? '' : normaliseFrequency(o.frequency);
    if (frequency === null)
      fail(`${path}.frequency`, `must be a VHF frequency from 118.000 to 136.999 such as "118.105" (got ${preview(o.frequency)})`);
    set.frequency = frequency!;
  }
  if (gives(o, 'area')) set.area = nullableStr(o, 'area', path);
  // A position without a rating (null: back to it) needs no more than S1.
  if (gives(o, 'rating')) set.rating = o.rating === null ? RATINGS.S1 : rating(o, 'rating', path);
  if (gives(o, 'required_facility')) set.required_facility = nullableStr(o, 'required_facility', path);
  return { callsign, set, path };
}
