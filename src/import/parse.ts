// Shape validation of an import file (contract §7). Pure: no database access.
// Every error names the JSON path of the offending value.
import { isRatingCode, RATINGS } from '../domain/ratings.js';
import { parseIsoInstant, parseYmdHis } from '../domain/time.js';
import type { EndorsementType, UsersTable } from '../db/schema.js';
import { pathKey, preview, quote } from './quote.js';

export class ImportError extends Error {}

export interface ImportUser extends Omit<UsersTable, 'created_at' | 'updated_at'> {
  atc_active_areas: Array<[area: string, active: boolean]>;
  path: string;
}
export interface ImportPosition {
  callsign: string;
  name: string;
  frequency: string;
  area: string | null;
  rating: number;
  required_facility: string | null;
  path: string;
}
export interface ImportEndorsement {
  user_id: number;
  type: EndorsementType;
  rating: string | null;
  areas: string[];
  positions: string[];
  valid_from: number;
  valid_to: number | null;
  revoked: boolean;
  /** When it was revoked, if the source knows; null: unknown (or not revoked). */
  revoked_at: number | null;
  path: string;
}
export interface ImportRole {
  user_id: number;
  area: string;
  role: string;
  path: string;
}
export interface ImportTraining {
  user_id: number;
  area: string;
  type: string;
  status: number;
  created_at: number;
  started_at: number | null;
  ratings: number[];
  path: string;
}
export interface ImportBooking {
  id: number | null;
  user_id: number;
  callsign: string;
  time_start: number;
  time_end: number;
  training: number;
  exam: number;
  event: number;
  deleted: number;
  source: string;
  network_booking: string | null;
  path: string;
}
export interface ImportPlan {
  areas: string[];
  users: ImportUser[];
  positions: ImportPosition[];
  endorsements: ImportEndorsement[];
  roles: ImportRole[];
  trainings: ImportTraining[];
  bookings: ImportBooking[];
}

const ENDORSEMENT_TYPES: Record<string, EndorsementType> = {
  visiting: 'visiting',
  examiner: 'examiner',
  facility: 'facility',
  masc: 'facility',
  solo: 'solo',
  s1: 's1',
};
export const TRAINING_TYPES = ['Standard', 'Refresh', 'Transfer', 'Fast-track', 'Familiarisation'];
const TOP_KEYS = ['areas', 'users', 'positions', 'endorsements', 'roles', 'trainings', 'bookings'];

type Obj = Record<string, unknown>;
const fail = (path: string, msg: string): never => {
  throw new ImportError(`${path}: ${msg}`);
};
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Refuses a second record with the same natural key: within one file the database would either
 * refuse it without a path or let the later record silently overwrite the earlier one.
 */
function refuseDuplicates<T extends { path: string }>(records: T[], keyOf: (r: T) => unknown[] | null, fields: string): void {
  const firstPath = new Map<string, string>();
  for (const r of records) {
    const parts = keyOf(r);
    if (parts === null) continue;
    const key = JSON.stringify(parts);
    const earlier = firstPath.get(key);
    if (earlier !== undefined) fail(r.path, `duplicates ${earlier} (same ${fields})`);
    firstPath.set(key, r.path);
  }
}
/** Drops records whose natural key is already listed; for records that are nothing but their key. */
function withoutRepeats<T>(records: T[], keyOf: (r: T) => unknown[]): T[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const key = JSON.stringify(keyOf(r));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function arr(root: Obj, key: string): unknown[] {
  const v = root[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail(key, 'must be an array');
  return v as unknown[];
}
function obj(v: unknown, path: string): Obj {
  if (!isObj(v)) fail(path, 'must be an object');
  return v as Obj;
}
/** Refuses NUL: PostgreSQL text cannot hold it, and would fail the whole import without a path. */
function refuseNul(v: string, path: string): string {
  if (v.includes('\u0000')) fail(path, 'must not contain a NUL character (\\u0000)');
  return v;
}
/** A trimmed, non-empty string of at most max characters. */
function text(v: unknown, path: string, max: number, what = 'a non-empty string'): string {
  if (typeof v !== 'string' || v.trim() === '') return fail(path, `must be ${what}`);
  refuseNul(v, path);
  if (v.length > max) fail(path, `must be at most ${max} characters`);
  return v.trim();
}
function str(o: Obj, key: string, path: string, opts: { optional?: boolean; max?: number } = {}): string | null {
  const v = o[key];
  if (v === undefined || v === null) {
    if (opts.optional) return null;
    return fail(`${path}.${key}`, 'is required');
  }
  return text(v, `${path}.${key}`, opts.max ?? 200);
}
function reqStr(o: Obj, key: string, path: string, max?: number): string {
  return str(o, key, path, { max }) as string;
}
function int(o: Obj, key: string, path: string, min: number, max: number): number {
  const v = o[key];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    return fail(`${path}.${key}`, `must be an integer from ${min} to ${max}`);
  }
  return v;
}
function rating(o: Obj, key: string, path: string): number {
  const v = o[key];
  if (typeof v !== 'string' || !isRatingCode(v)) return fail(`${path}.${key}`, `unknown rating ${preview(v)}`);
  return RATINGS[v];
}
function instant(o: Obj, key: string, path: string, nullable: boolean): number | null {
  const v = o[key];
  if (v === null || v === undefined) {
    if (nullable) return null;
    return fail(`${path}.${key}`, 'is required');
  }
  const ms = typeof v === 'string' ? parseIsoInstant(v) : null;
  if (ms === null) return fail(`${path}.${key}`, `must be an ISO 8601 time such as 2025-01-01T00:00:00Z (got ${preview(v)})`);
  return ms;
}
function strList(o: Obj, key: string, path: string): string[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return fail(`${path}.${key}`, 'must be an array of strings');
  return v.map((s, i) => text(s, `${path}.${key}[${i}]`, 200));
}
function bookingId(o: Obj, path: string): number | null {
  const v = o.id;
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_IMPORTED_BOOKING_ID) {
    return fail(`${path}.id`, `must be an integer from 1 to ${MAX_IMPORTED_BOOKING_ID} (higher ids are left for bookings made after the import)`);
  }
  return v;
}
function bool(o: Obj, key: string, path: string): boolean {
  const v = o[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') fail(`${path}.${key}`, 'must be true or false');
  return v as boolean;
}

export const MAX_CID = 99_999_999;
/**
 * Highest booking id an import may give. Ids are 32-bit (the API takes ids up to 2^31 - 1) and
 * new bookings are numbered after the highest imported id, so the rest is left for them.
 */
export const MAX_IMPORTED_BOOKING_ID = 2_000_000_000;
const CALLSIGN_RE = /^[A-Z0-9]{2,}(_[A-Z0-9]+)*$/;

export function normaliseFrequency(v: unknown): string | null {
  if (typeof v !== 'string' || !/^\d{3}\.\d{1,3}$/.test(v)) return null;
  const mhz = Number(v);
  if (mhz < 118 || mhz >= 137) return null;
  return mhz.toFixed(3);
}

export function parseImport(input: unknown): ImportPlan {
  const root = obj(input, '$');
  for (const k of Object.keys(root)) if (!TOP_KEYS.includes(k)) fail(pathKey(k), `unknown key; expected one of ${TOP_KEYS.join(', ')}`);

  // Listing an area twice says nothing new: the repeat is ignored.
  const areas = [...new Set(arr(root, 'areas').map((a, i) => text(a, `areas[${i}]`, 100, 'a non-empty area name')))];

  const users = arr(root, 'users').map((u, i): ImportUser => {
    const path = `users[${i}]`;
    const o = obj(u, path);
    const email = str(o, 'email', path, { optional: true });
    if (email !== null && !/^[^\s@]+@[^\s@]+$/.test(email)) fail(`${path}.email`, 'is not an e-mail address');
    const activity = o.atc_active_areas ?? {};
    if (!isObj(activity)) fail(`${path}.atc_active_areas`, 'must be an object of area name -> true/false');
    return {
      id: int(o, 'id', path, 1, MAX_CID),
      email,
      first_name: str(o, 'first_name', path, { optional: true }),
      last_name: str(o, 'last_name', path, { optional: true }),
      rating: rating(o, 'rating', path),
      region: str(o, 'region', path, { optional: true }),
      division: str(o, 'division', path, { optional: true }),
      subdivision: str(o, 'subdivision', path, { optional: true }),
      atc_active_areas: Object.entries(activity as Obj).map(([area, active]) => {
        refuseNul(area, `${path}.atc_active_areas`);
        if (typeof active !== 'boolean') fail(`${path}.atc_active_areas.${pathKey(area)}`, 'must be true or false');
        return [area, active as boolean];
      }),
      path,
    };
  });
  refuseDuplicates(users, (u) => [u.id], 'id');

  const positions = arr(root, 'positions').map((p, i): ImportPosition => {
    const path = `positions[${i}]`;
    const o = obj(p, path);
    const callsign = reqStr(o, 'callsign', path, 20).toUpperCase();
    if (!CALLSIGN_RE.test(callsign)) fail(`${path}.callsign`, `is not a callsign like EKCH_TWR (got ${preview(callsign)})`);
    const frequency = normaliseFrequency(o.frequency);
    if (frequency === null) fail(`${path}.frequency`, `must be a VHF frequency from 118.000 to 136.999 such as "118.105" (got ${preview(o.frequency)})`);
    return {
      callsign,
      name: reqStr(o, 'name', path),
      frequency: frequency as string,
      area: str(o, 'area', path, { optional: true }),
      rating: o.rating === undefined || o.rating === null ? RATINGS.S1 : rating(o, 'rating', path),
      required_facility: str(o, 'required_facility', path, { optional: true }),
      path,
    };
  });
  refuseDuplicates(positions, (p) => [p.callsign], 'callsign');

  const endorsements = arr(root, 'endorsements').map((e, i): ImportEndorsement => {
    const path = `endorsements[${i}]`;
    const o = obj(e, path);
    const type = ENDORSEMENT_TYPES[String(o.type)];
    if (!type) fail(`${path}.type`, `must be one of visiting, examiner, facility, masc, solo, s1 (got ${preview(o.type)})`);
    let r: string | null = null;
    if (type === 'visiting' || type === 'examiner') {
      if (typeof o.rating !== 'string' || !isRatingCode(o.rating)) fail(`${path}.rating`, `unknown rating ${preview(o.rating)}`);
      r = o.rating as string;
    } else if (type === 'facility') {
      r = reqStr(o, 'rating', path);
    }
    const validFrom = instant(o, 'valid_from', path, false) as number;
    const validTo = instant(o, 'valid_to', path, true);
    if (validTo !== null && validTo <= validFrom) fail(`${path}.valid_to`, 'must be after valid_from');
    const revoked = bool(o, 'revoked', path);
    const revokedAt = instant(o, 'revoked_at', path, true);
    if (revokedAt !== null && !revoked) fail(`${path}.revoked_at`, 'must be null unless revoked is true');
    return {
      user_id: int(o, 'user_id', path, 1, MAX_CID),
      type: type as EndorsementType,
      rating: r,
      areas: strList(o, 'areas', path),
      positions: strList(o, 'positions', path).map((c) => c.toUpperCase()),
      valid_from: validFrom,
      valid_to: validTo,
      revoked,
      revoked_at: revokedAt,
      path,
    };
  });
  // masc is already facility here, and times are instants: the key the database compares.
  refuseDuplicates(endorsements, (e) => [e.user_id, e.type, e.valid_from], 'user_id, type and valid_from');

  const parsedRoles = arr(root, 'roles').map((r, i): ImportRole => {
    const path = `roles[${i}]`;
    const o = obj(r, path);
    return { user_id: int(o, 'user_id', path, 1, MAX_CID), area: reqStr(o, 'area', path), role: reqStr(o, 'role', path, 50), path };
  });
  // A role is nothing but its key: a repeat adds nothing and contradicts nothing, so it is ignored.
  const roles = withoutRepeats(parsedRoles, (r) => [r.user_id, r.area, r.role]);

  const trainings = arr(root, 'trainings').map((t, i): ImportTraining => {
    const path = `trainings[${i}]`;
    const o = obj(t, path);
    const type = reqStr(o, 'type', path);
    if (!TRAINING_TYPES.includes(type)) fail(`${path}.type`, `must be one of ${TRAINING_TYPES.join(', ')}`);
    const ratings = strList(o, 'ratings', path).map((code, j) => {
      if (!isRatingCode(code)) fail(`${path}.ratings[${j}]`, `unknown rating ${quote(code)}`);
      return RATINGS[code as keyof typeof RATINGS];
    });
    return {
      user_id: int(o, 'user_id', path, 1, MAX_CID),
      area: reqStr(o, 'area', path),
      type,
      status: int(o, 'status', path, -4, 3),
      created_at: instant(o, 'created_at', path, false) as number,
      started_at: instant(o, 'started_at', path, true),
      ratings,
      path,
    };
  });
  refuseDuplicates(trainings, (t) => [t.user_id, t.area, t.created_at], 'user_id, area and created_at');

  const bookings = arr(root, 'bookings').map((b, i): ImportBooking => {
    const path = `bookings[${i}]`;
    const o = obj(b, path);
    const times = (['time_start', 'time_end'] as const).map((k) => {
      const ms = typeof o[k] === 'string' ? parseYmdHis(o[k] as string) : null;
      if (ms === null) fail(`${path}.${k}`, `must be "Y-m-d H:i:s" such as "2026-12-01 10:00:00" (got ${preview(o[k])})`);
      return ms as number;
    }) as [number, number];
    if (times[1] <= times[0]) fail(`${path}.time_end`, 'must be after time_start');
    const tag = o.tag ?? null;
    if (tag !== null && tag !== 1 && tag !== 2 && tag !== 3) fail(`${path}.tag`, 'must be 1 (training), 2 (exam), 3 (event) or null');
    const source = (str(o, 'source', path, { optional: true }) ?? 'CC').toUpperCase();
    if (!/^[A-Z0-9_-]{1,16}$/.test(source)) fail(`${path}.source`, 'must be 1-16 characters of A-Z, 0-9, _ and -');
    return {
      id: bookingId(o, path),
      user_id: int(o, 'user_id', path, 1, MAX_CID),
      callsign: reqStr(o, 'callsign', path, 20).toUpperCase(),
      time_start: times[0],
      time_end: times[1],
      training: tag === 1 ? 1 : 0,
      exam: tag === 2 ? 1 : 0,
      event: tag === 3 ? 1 : 0,
      deleted: bool(o, 'deleted', path) ? 1 : 0,
      source,
      network_booking: str(o, 'network_booking', path, { optional: true }),
      path,
    };
  });
  // Bookings without an id are always new rows; only given ids are keys.
  refuseDuplicates(bookings, (b) => (b.id === null ? null : [b.id]), 'id');

  return { areas, users, positions, endorsements, roles, trainings, bookings };
}
