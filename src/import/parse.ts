// Shape validation of an import file (docs/import-format.md). Pure: no database access.
// Every error names the JSON path of the offending value.
import { MAX_CALLSIGN_LENGTH, MAX_CID, MAX_SOURCE_LENGTH, MIN_SOURCE_LENGTH, SOURCE_PATTERN } from '../domain/limits.js';
import { isRatingCode, RATINGS } from '../domain/ratings.js';
import { parseIsoInstant, parseYmdHis } from '../domain/time.js';
import type { EndorsementType, UsersTable } from '../db/schema.js';
import { pathKey, preview, quote } from './quote.js';

export class ImportError extends Error {}

/*
 * A record carries its natural key and `set`: the fields it gives, as column values. A field
 * the record omits is absent from `set`, so an update keeps the stored value; an explicit null
 * is present (null, or the default of a field that has one). Whether a record creates or
 * updates a row is known only against the database: the importer checks required fields there.
 */

export type UserFields = Partial<Omit<UsersTable, 'id' | 'created_at' | 'updated_at'>>;
export interface ImportUser {
  id: number;
  set: UserFields;
  /** Areas whose activity the record sets; the others keep theirs. */
  atc_active_areas: Array<[area: string, active: boolean]>;
  path: string;
}
export interface ImportPosition {
  callsign: string;
  set: Partial<{ name: string; frequency: string; area: string | null; rating: number; required_facility: string | null }>;
  path: string;
}
export interface ImportEndorsement {
  user_id: number;
  type: EndorsementType;
  valid_from: number;
  /** revoked_at only ever comes with revoked (a null revoked_at: the time is not known). */
  set: Partial<{ rating: string; valid_to: number | null; revoked: boolean; revoked_at: number | null }>;
  /** Undefined: omitted, the stored links stay; a list (empty for null) replaces them. */
  areas?: string[];
  positions?: string[];
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
  created_at: number;
  set: Partial<{ type: string; status: number; started_at: number | null }>;
  /** Undefined: omitted, the stored ratings stay; a list (empty for null) replaces them. */
  ratings?: number[];
  path: string;
}
export type BookingTag = 1 | 2 | 3;
export interface ImportBooking {
  /** Null: a new booking, numbered by the database. */
  id: number | null;
  set: Partial<{
    user_id: number;
    callsign: string;
    time_start: number;
    time_end: number;
    tag: BookingTag | null;
    source: string;
    deleted: boolean;
    network_booking: string | null;
    /** The flags as stored (an export gives them); they win over tag. */
    training: boolean;
    exam: boolean;
    event: boolean;
    training_forced: boolean;
    created_at: number;
    updated_at: number;
  }>;
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
/** A record: an object with only the fields its section knows. */
function record(v: unknown, path: string, fields: readonly string[]): Obj {
  const o = obj(v, path);
  for (const key of Object.keys(o))
    if (!fields.includes(key)) fail(`${path}.${pathKey(key)}`, `unknown field; expected one of ${fields.join(', ')}`);
  return o;
}
/** Whether the record gives the field at all (null included). */
const gives = (o: Obj, key: string): boolean => Object.hasOwn(o, key);
/** Refuses an explicit null for a field that cannot be empty. */
function notNull(o: Obj, key: string, path: string): void {
  if (o[key] === null) fail(`${path}.${key}`, 'must not be null');
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
/** A string that must be there (a key field, or a field given that cannot be empty). */
function reqStr(o: Obj, key: string, path: string, max = 200): string {
  const v = o[key];
  if (v === undefined || v === null) return fail(`${path}.${key}`, 'is required');
  return text(v, `${path}.${key}`, max);
}
/** A field that may be null. */
function nullableStr(o: Obj, key: string, path: string, max = 200): string | null {
  const v = o[key];
  return v === undefined || v === null ? null : text(v, `${path}.${key}`, max);
}
function int(o: Obj, key: string, path: string, min: number, max: number): number {
  const v = o[key];
  if (v === undefined || v === null) return fail(`${path}.${key}`, 'is required');
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
/** A list of strings; null is the empty list. */
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
    return fail(
      `${path}.id`,
      `must be an integer from 1 to ${MAX_IMPORTED_BOOKING_ID} (higher ids are left for bookings made after the import)`,
    );
  }
  return v;
}
/** true or false; null is false. */
function bool(o: Obj, key: string, path: string): boolean {
  const v = o[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') fail(`${path}.${key}`, 'must be true or false');
  return v as boolean;
}

export { MAX_CID } from '../domain/limits.js';
/**
 * Highest booking id an import may give. Ids are 32-bit (the API takes ids up to 2^31 - 1) and
 * new bookings are numbered after the highest imported id, so the rest is left for them.
 */
export const MAX_IMPORTED_BOOKING_ID = 2_000_000_000;
const CALLSIGN_RE = /^[A-Z0-9]{2,}(_[A-Z0-9]+)*$/;
const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;

export function normaliseFrequency(v: unknown): string | null {
  if (typeof v !== 'string' || !/^\d{3}\.\d{1,3}$/.test(v)) return null;
  const mhz = Number(v);
  if (mhz < 118 || mhz >= 137) return null;
  return mhz.toFixed(3);
}

const USER_FIELDS = ['id', 'email', 'first_name', 'last_name', 'rating', 'region', 'division', 'subdivision', 'atc_active_areas'] as const;
const POSITION_FIELDS = ['callsign', 'name', 'frequency', 'area', 'rating', 'required_facility'] as const;
const ENDORSEMENT_FIELDS = ['user_id', 'type', 'rating', 'areas', 'positions', 'valid_from', 'valid_to', 'revoked', 'revoked_at'] as const;
const ROLE_FIELDS = ['user_id', 'area', 'role'] as const;
const TRAINING_FIELDS = ['user_id', 'area', 'type', 'status', 'created_at', 'started_at', 'ratings'] as const;
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
] as const;

function parseUser(u: unknown, path: string): ImportUser {
  const o = record(u, path, USER_FIELDS);
  const id = int(o, 'id', path, 1, MAX_CID);
  const set: UserFields = {};
  if (gives(o, 'email')) {
    const email = nullableStr(o, 'email', path);
    if (email !== null && !EMAIL_RE.test(email)) fail(`${path}.email`, 'is not an e-mail address');
    set.email = email;
  }
  for (const key of ['first_name', 'last_name', 'region', 'division', 'subdivision'] as const) {
    if (gives(o, key)) set[key] = nullableStr(o, key, path);
  }
  if (gives(o, 'rating')) {
    notNull(o, 'rating', path);
    set.rating = rating(o, 'rating', path);
  }
  // A map of area name -> active, merged into the stored activity (null: nothing to merge).
  const activity = o.atc_active_areas ?? {};
  if (!isObj(activity)) fail(`${path}.atc_active_areas`, 'must be an object of area name -> true/false');
  const atc_active_areas = Object.entries(activity as Obj).map(([area, active]): [string, boolean] => {
    refuseNul(area, `${path}.atc_active_areas`);
    if (typeof active !== 'boolean') fail(`${path}.atc_active_areas.${pathKey(area)}`, 'must be true or false');
    return [area, active as boolean];
  });
  return { id, set, atc_active_areas, path };
}

function parsePosition(p: unknown, path: string): ImportPosition {
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
    const frequency = normaliseFrequency(o.frequency);
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

function parseEndorsement(e: unknown, path: string): ImportEndorsement {
  const o = record(e, path, ENDORSEMENT_FIELDS);
  const type = ENDORSEMENT_TYPES[String(o.type)];
  if (!type) fail(`${path}.type`, `must be one of visiting, examiner, facility, masc, solo, s1 (got ${preview(o.type)})`);
  const set: ImportEndorsement['set'] = {};
  // solo and s1 have no rating: whatever is given is not stored.
  if (gives(o, 'rating') && (type === 'visiting' || type === 'examiner')) {
    notNull(o, 'rating', path);
    if (typeof o.rating !== 'string' || !isRatingCode(o.rating)) fail(`${path}.rating`, `unknown rating ${preview(o.rating)}`);
    set.rating = o.rating as string;
  } else if (gives(o, 'rating') && type === 'facility') {
    notNull(o, 'rating', path);
    set.rating = reqStr(o, 'rating', path);
  }
  const validFrom = instant(o, 'valid_from', path, false) as number;
  if (gives(o, 'valid_to')) {
    const validTo = instant(o, 'valid_to', path, true);
    if (validTo !== null && validTo <= validFrom) fail(`${path}.valid_to`, 'must be after valid_from');
    set.valid_to = validTo;
  }
  if (gives(o, 'revoked')) set.revoked = bool(o, 'revoked', path);
  if (gives(o, 'revoked_at')) {
    const revokedAt = instant(o, 'revoked_at', path, true);
    // Only with revoked: true in the same record, which the stored row cannot stand in for.
    if (revokedAt !== null && set.revoked !== true) fail(`${path}.revoked_at`, 'must be null unless revoked is true');
    if (set.revoked !== undefined) set.revoked_at = revokedAt;
  }
  const out: ImportEndorsement = { user_id: int(o, 'user_id', path, 1, MAX_CID), type: type!, valid_from: validFrom, set, path };
  if (gives(o, 'areas')) out.areas = strList(o, 'areas', path);
  if (gives(o, 'positions')) out.positions = strList(o, 'positions', path).map((c) => c.toUpperCase());
  return out;
}

function parseRole(r: unknown, path: string): ImportRole {
  const o = record(r, path, ROLE_FIELDS);
  return { user_id: int(o, 'user_id', path, 1, MAX_CID), area: reqStr(o, 'area', path), role: reqStr(o, 'role', path, 50), path };
}

function parseTraining(t: unknown, path: string): ImportTraining {
  const o = record(t, path, TRAINING_FIELDS);
  const set: ImportTraining['set'] = {};
  if (gives(o, 'type')) {
    notNull(o, 'type', path);
    const type = reqStr(o, 'type', path);
    if (!TRAINING_TYPES.includes(type)) fail(`${path}.type`, `must be one of ${TRAINING_TYPES.join(', ')}`);
    set.type = type;
  }
  let ratings: number[] | undefined;
  if (gives(o, 'ratings')) {
    ratings = strList(o, 'ratings', path).map((code, j) => {
      if (!isRatingCode(code)) fail(`${path}.ratings[${j}]`, `unknown rating ${quote(code)}`);
      return RATINGS[code as keyof typeof RATINGS];
    });
  }
  const userId = int(o, 'user_id', path, 1, MAX_CID);
  const area = reqStr(o, 'area', path);
  if (gives(o, 'status')) {
    notNull(o, 'status', path);
    set.status = int(o, 'status', path, -4, 3);
  }
  const createdAt = instant(o, 'created_at', path, false) as number;
  if (gives(o, 'started_at')) set.started_at = instant(o, 'started_at', path, true);
  const out: ImportTraining = { user_id: userId, area, created_at: createdAt, set, path };
  if (ratings !== undefined) out.ratings = ratings;
  return out;
}

function parseBooking(b: unknown, path: string): ImportBooking {
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
  return { id, set, path };
}

export function parseImport(input: unknown): ImportPlan {
  const root = obj(input, '$');
  for (const k of Object.keys(root)) if (!TOP_KEYS.includes(k)) fail(pathKey(k), `unknown key; expected one of ${TOP_KEYS.join(', ')}`);

  // Listing an area twice says nothing new: the repeat is ignored.
  const areas = [...new Set(arr(root, 'areas').map((a, i) => text(a, `areas[${i}]`, 100, 'a non-empty area name')))];

  const users = arr(root, 'users').map((u, i) => parseUser(u, `users[${i}]`));
  refuseDuplicates(users, (u) => [u.id], 'id');

  const positions = arr(root, 'positions').map((p, i) => parsePosition(p, `positions[${i}]`));
  refuseDuplicates(positions, (p) => [p.callsign], 'callsign');

  const endorsements = arr(root, 'endorsements').map((e, i) => parseEndorsement(e, `endorsements[${i}]`));
  // masc is already facility here, and times are instants: the key the database compares.
  refuseDuplicates(endorsements, (e) => [e.user_id, e.type, e.valid_from], 'user_id, type and valid_from');

  // A role is nothing but its key: a repeat adds nothing and contradicts nothing, so it is ignored.
  const roles = withoutRepeats(
    arr(root, 'roles').map((r, i) => parseRole(r, `roles[${i}]`)),
    (r) => [r.user_id, r.area, r.role],
  );

  const trainings = arr(root, 'trainings').map((t, i) => parseTraining(t, `trainings[${i}]`));
  refuseDuplicates(trainings, (t) => [t.user_id, t.area, t.created_at], 'user_id, area and created_at');

  const bookings = arr(root, 'bookings').map((b, i) => parseBooking(b, `bookings[${i}]`));
  // Bookings without an id are always new rows; only given ids are keys.
  refuseDuplicates(bookings, (b) => (b.id === null ? null : [b.id]), 'id');

  return { areas, users, positions, endorsements, roles, trainings, bookings };
}
