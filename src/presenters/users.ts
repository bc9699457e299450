import type { ApiVariant } from '../config.js';
import { ratingCode } from '../domain/ratings.js';
import { isoMicros } from '../domain/time.js';
import {
  isExpired,
  isListedAsRecent,
  LEGACY_ROLE_LISTS,
  LEGACY_ROLES,
  trainingStatusDescription,
  type Includes,
  type LegacyRole,
} from '../domain/users/index.js';
import type { TrainingEndorsementCandidate } from '../repositories/deprecated.js';
import type { AreaRow, UsersData } from '../repositories/users.js';

export interface DatedJson {
  valid_from: string;
  valid_to: string | null;
}
export interface AreaEndorsementJson extends DatedJson {
  rating: string;
  areas: string[];
}
export interface FacilityEndorsementJson extends DatedJson {
  rating: string;
}
export interface TrainingEndorsementJson extends DatedJson {
  positions: string[];
}
export interface EndorsementsJson {
  visiting: AreaEndorsementJson[];
  examiner: AreaEndorsementJson[];
  training: { solo: TrainingEndorsementJson[] | null; s1: TrainingEndorsementJson[] | null };
  facility?: FacilityEndorsementJson[];
  masc?: FacilityEndorsementJson[];
}
export interface TrainingJson {
  area: string;
  type: string;
  status: number;
  status_description: string;
  created_at: string;
  started_at: string | null;
  ratings: string[];
}
export interface UserJson {
  id: number;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  rating: string;
  region?: string | null;
  division?: string | null;
  subdivision?: string | null;
  atc_active: boolean;
  atc_active_areas?: Record<string, boolean>;
  endorsements?: EndorsementsJson;
  roles?: Record<string, string[] | null>;
  training?: TrainingJson[];
}

const DAY_MS = 86_400_000;
// Years 0000-9999: the range where toISOString has the plain YYYY form.
const MIN_FAST_MS = -62_167_219_200_000;
const MAX_FAST_MS = 253_402_300_800_000;

/**
 * isoMicros for many timestamps: each calendar day and each time of day is formatted once, so
 * a timestamp costs two lookups and one concatenation. Same output as isoMicros. A list of ten
 * thousand users carries tens of thousands of timestamps on a few thousand days and (as people
 * pick whole minutes) few distinct times of day; a string built from two flat halves also
 * serialises faster than one pieced together from many fragments.
 */
export function timestampFormatter(): (ms: number) => string {
  const days = new Map<number, string>();
  const times = new Map<number, string>();
  return (ms) => {
    if (!Number.isInteger(ms) || ms < MIN_FAST_MS || ms >= MAX_FAST_MS) return isoMicros(ms);
    const day = Math.floor(ms / DAY_MS);
    let date = days.get(day);
    if (date === undefined) days.set(day, (date = isoMicros(day * DAY_MS).slice(0, 11)));
    const ofDay = ms - day * DAY_MS;
    let time = times.get(ofDay);
    if (time === undefined) times.set(ofDay, (time = isoMicros(ofDay).slice(11)));
    return date + time;
  };
}

/** Plain byte order, independent of locale and database collation. */
export const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

function groupBy<T, K>(rows: readonly T[], key: (row: T) => K, value: (row: T) => string): Map<K, string[]> {
  const out = new Map<K, string[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(value(row));
    else out.set(k, [value(row)]);
  }
  for (const list of out.values()) list.sort(byteOrder);
  return out;
}

function emptyEndorsements(variant: ApiVariant): EndorsementsJson {
  const base: EndorsementsJson = { visiting: [], examiner: [], training: { solo: null, s1: null } };
  // The older variant calls facility endorsements "masc" (docs/api.md, variants).
  if (variant === 'older') base.masc = [];
  else base.facility = [];
  return base;
}

type Format = (ms: number) => string;

function endorsementsByUser(
  data: UsersData,
  areaName: Map<number, string>,
  variant: ApiVariant,
  iso: Format,
): Map<number, EndorsementsJson> {
  const areasOf = groupBy(
    data.endorsementAreas,
    (r) => r.endorsement_id,
    (r) => areaName.get(r.area_id)!,
  );
  const positionsOf = groupBy(
    data.endorsementPositions,
    (r) => r.endorsement_id,
    (r) => r.callsign,
  );
  const out = new Map<number, EndorsementsJson>();
  for (const e of data.endorsements) {
    let json = out.get(e.user_id);
    if (!json) out.set(e.user_id, (json = emptyEndorsements(variant)));
    const validFrom = iso(e.valid_from);
    const validTo = e.valid_to === null ? null : iso(e.valid_to);
    switch (e.type) {
      case 'visiting':
        json.visiting.push({ valid_from: validFrom, valid_to: validTo, rating: e.rating ?? '', areas: areasOf.get(e.id) ?? [] });
        break;
      case 'examiner':
        json.examiner.push({ valid_from: validFrom, valid_to: validTo, rating: e.rating ?? '', areas: areasOf.get(e.id) ?? [] });
        break;
      case 'facility':
        (json.facility ?? json.masc)!.push({ valid_from: validFrom, valid_to: validTo, rating: e.rating ?? '' });
        break;
      case 'solo':
        (json.training.solo ??= []).push({ valid_from: validFrom, valid_to: validTo, positions: positionsOf.get(e.id) ?? [] });
        break;
      case 's1':
        (json.training.s1 ??= []).push({ valid_from: validFrom, valid_to: validTo, positions: positionsOf.get(e.id) ?? [] });
        break;
    }
  }
  return out;
}

function trainingsByUser(data: UsersData, areaName: Map<number, string>, iso: Format): Map<number, TrainingJson[]> {
  const out = new Map<number, TrainingJson[]>();
  // Rows come one per trained rating, ordered by user and training: consecutive rows of a
  // training share its id.
  let lastId: number | null = null;
  let current: TrainingJson | null = null;
  for (const t of data.trainings) {
    if (t.id !== lastId || current === null) {
      lastId = t.id;
      current = {
        area: areaName.get(t.area_id)!,
        type: t.type,
        status: t.status,
        status_description: trainingStatusDescription(t.status),
        created_at: iso(t.created_at),
        started_at: t.started_at === null ? null : iso(t.started_at),
        ratings: [],
      };
      const list = out.get(t.user_id);
      if (list) list.push(current);
      else out.set(t.user_id, [current]);
    }
    if (t.rating !== null) current.ratings.push(ratingCode(t.rating));
  }
  return out;
}

/**
 * An object for JSON keys taken from data (area names). A plain object keeps one shape across
 * users, which JSON.stringify walks far faster than the dictionary a null-prototype object is;
 * only a key named __proto__ would misbehave on it.
 */
// An empty record of no values yet is assignable to a record of any value type.
function keyedObjectFactory(keys: readonly string[]): () => Record<string, never> {
  return keys.includes('__proto__') ? () => Object.create(null) as Record<string, never> : () => ({});
}

/**
 * atc_active_areas per user. Area names differing only in case share a key, active in either
 * counts. Users active in the same areas get the same object: there are few distinct ones.
 */
function activeAreasByUser(areas: readonly AreaRow[], activity: UsersData['activity']): (userId: number) => Record<string, boolean> {
  const keys: string[] = [];
  const keyOfArea = new Map<number, number>();
  for (const a of areas) {
    const key = a.name.toLowerCase();
    let index = keys.indexOf(key);
    if (index < 0) index = keys.push(key) - 1;
    keyOfArea.set(a.id, index);
  }
  const activeKeys = new Map<number, boolean[]>();
  for (const a of activity) {
    const index = keyOfArea.get(a.area_id);
    if (index === undefined) continue;
    let flags = activeKeys.get(a.user_id);
    if (!flags) activeKeys.set(a.user_id, (flags = keys.map(() => false)));
    flags[index] = true;
  }
  const newObject = keyedObjectFactory(keys);
  const shared = new Map<string, Record<string, boolean>>();
  const build = (flags: readonly boolean[] | undefined) => {
    const out: Record<string, boolean> = newObject();
    for (let i = 0; i < keys.length; i++) out[keys[i]!] = flags?.[i] ?? false;
    return out;
  };
  const inactive = build(undefined);
  return (userId) => {
    const flags = activeKeys.get(userId);
    if (!flags) return inactive;
    const signature = flags.map((f) => (f ? '1' : '0')).join('');
    let json = shared.get(signature);
    if (!json) shared.set(signature, (json = build(flags)));
    return json;
  };
}

/** roles per user: every area by name, null where the user holds no role there. */
function rolesByUser(areas: readonly AreaRow[], rows: UsersData['roles']): (userId: number) => Record<string, string[] | null> {
  const areaIndex = new Map(areas.map((a, i) => [a.id, i]));
  const listsOf = new Map<number, Array<string[] | null>>();
  for (const r of rows) {
    const index = areaIndex.get(r.area_id);
    if (index === undefined) continue;
    let lists = listsOf.get(r.user_id);
    if (!lists) listsOf.set(r.user_id, (lists = areas.map(() => null)));
    const list = lists[index];
    if (list) list.push(r.role);
    else lists[index] = [r.role];
  }
  const newObject = keyedObjectFactory(areas.map((a) => a.name));
  const build = (lists: ReadonlyArray<string[] | null> | undefined) => {
    const out: Record<string, string[] | null> = newObject();
    for (let i = 0; i < areas.length; i++) {
      const list = lists?.[i] ?? null;
      out[areas[i]!.name] = list === null ? null : list.sort(byteOrder);
    }
    return out;
  };
  // Most users hold no role: they all share one object.
  const none = build(undefined);
  return (userId) => {
    const lists = listsOf.get(userId);
    return lists ? build(lists) : none;
  };
}

/**
 * Rows -> the GET /api/users array, in one pass per relation. Every returned user carries
 * exactly the fields its includes ask for; relation fields are present for every user.
 * The result is for serialising: users with equal relation values may share those objects.
 */
export function presentUsers(data: UsersData, includes: Includes, variant: ApiVariant): UserJson[] {
  const areas = [...data.areas].sort((a, b) => byteOrder(a.name, b.name));
  const areaName = new Map(areas.map((a) => [a.id, a.name]));
  const activeAreasOf = includes.activeAreas && variant === 'newer' ? activeAreasByUser(areas, data.activity) : null;
  const rolesOf = includes.roles ? rolesByUser(areas, data.roles) : null;
  const iso = timestampFormatter();
  const endorsementsOf = includes.endorsements ? endorsementsByUser(data, areaName, variant, iso) : null;
  const noEndorsements = emptyEndorsements(variant);
  const trainingsOf = includes.training ? trainingsByUser(data, areaName, iso) : null;
  const noTrainings: TrainingJson[] = [];
  const { email, name, divisions } = includes;

  const out = new Array<UserJson>(data.users.length);
  for (let i = 0; i < data.users.length; i++) {
    const u = data.users[i]!;
    const json = { id: u.id } as UserJson;
    if (email) json.email = u.email ?? null;
    if (name) {
      json.first_name = u.first_name ?? null;
      json.last_name = u.last_name ?? null;
    }
    json.rating = ratingCode(u.rating);
    if (divisions) {
      json.region = u.region ?? null;
      json.division = u.division ?? null;
      json.subdivision = u.subdivision ?? null;
    }
    json.atc_active = u.atc_active;
    if (activeAreasOf) json.atc_active_areas = activeAreasOf(u.id);
    if (endorsementsOf) json.endorsements = endorsementsOf.get(u.id) ?? noEndorsements;
    if (rolesOf) json.roles = rolesOf(u.id);
    if (trainingsOf) json.training = trainingsOf.get(u.id) ?? noTrainings;
    out[i] = json;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Deprecated endpoints (docs/api.md, deprecated endpoints): the lists older integrations still read.

export interface LegacyRolesJson {
  mentors: Array<{ id: number; fir: string[] }>;
  moderators: Array<{ id: number; fir: string[] }>;
  admins: Array<{ id: number; fir: string[] }>;
}

/** Sorted, de-duplicated strings of a set. */
const sortedList = (values: Iterable<string>): string[] => [...new Set(values)].sort(byteOrder);

function groupSets<K>(rows: Iterable<[K, string]>): Map<K, Set<string>> {
  const out = new Map<K, Set<string>>();
  for (const [k, v] of rows) {
    const set = out.get(k);
    if (set) set.add(v);
    else out.set(k, new Set([v]));
  }
  return out;
}

export function presentLegacyRoles(rows: ReadonlyArray<{ user_id: number; role: LegacyRole; area: string }>): LegacyRolesJson {
  const out: LegacyRolesJson = { mentors: [], moderators: [], admins: [] };
  for (const role of LEGACY_ROLES) {
    const byUser = groupSets(rows.filter((r) => r.role === role).map((r) => [r.user_id, r.area] as [number, string]));
    out[LEGACY_ROLE_LISTS[role]] = [...byUser].sort(([a], [b]) => a - b).map(([id, areas]) => ({ id, fir: sortedList(areas) }));
  }
  return out;
}

export interface FacilityHolderJson {
  user_id: number;
  user_atc_active: boolean;
  ratings: string[];
}

export function presentFacilityHolders(
  rows: ReadonlyArray<{ user_id: number; facility: string; atc_active: boolean }>,
): FacilityHolderJson[] {
  const active = new Map(rows.map((r) => [r.user_id, r.atc_active]));
  const byUser = groupSets(rows.map((r) => [r.user_id, r.facility] as [number, string]));
  return [...byUser]
    .sort(([a], [b]) => a - b)
    .map(([user_id, facilities]) => ({ user_id, user_atc_active: active.get(user_id) ?? false, ratings: sortedList(facilities) }));
}

export interface LegacyTrainingEndorsementJson {
  user_id: number;
  type: 'SOLO' | 'S1';
  valid_from: string;
  valid_to: string | null;
  expired: boolean;
  revoked: boolean;
  positions: string[];
}

export function presentTrainingEndorsements(
  type: 'solo' | 's1',
  data: { endorsements: readonly TrainingEndorsementCandidate[]; positions: ReadonlyArray<{ endorsement_id: number; callsign: string }> },
  now: number,
): LegacyTrainingEndorsementJson[] {
  const positionsOf = groupBy(
    data.positions,
    (p) => p.endorsement_id,
    (p) => p.callsign,
  );
  return data.endorsements
    .filter((e) => isListedAsRecent(e, now))
    .map((e) => ({
      user_id: e.user_id,
      // The type names of the system these endorsements were first published by.
      type: type === 'solo' ? 'SOLO' : 'S1',
      valid_from: isoMicros(e.valid_from),
      valid_to: e.valid_to === null ? null : isoMicros(e.valid_to),
      expired: isExpired(e, now),
      revoked: Boolean(e.revoked),
      positions: positionsOf.get(e.id) ?? [],
    }));
}

export interface ExaminerAreaJson {
  area: string;
  examiners: Array<{ user_id: number; first_name: string | null; rating: string }>;
}

export function presentExaminers(data: {
  areas: ReadonlyArray<{ id: number; name: string }>;
  examiners: ReadonlyArray<{ area_id: number; user_id: number; first_name: string | null; rating: string | null }>;
}): ExaminerAreaJson[] {
  const byArea = new Map<number, ExaminerAreaJson['examiners']>();
  const seen = new Set<string>();
  for (const x of data.examiners) {
    const rating = x.rating ?? '';
    // Two endorsements of one examiner with the same rating in one area say the same thing.
    const key = `${x.area_id}|${x.user_id}|${rating}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const list = byArea.get(x.area_id);
    const item = { user_id: x.user_id, first_name: x.first_name, rating };
    if (list) list.push(item);
    else byArea.set(x.area_id, [item]);
  }
  return [...data.areas].sort((a, b) => byteOrder(a.name, b.name)).map((a) => ({ area: a.name, examiners: byArea.get(a.id) ?? [] }));
}

export interface VisitingJson {
  user_id: number;
  first_name: string | null;
  rating: string;
  areas: Array<{ name: string; maes: string[] }>;
}

export function presentVisiting(data: {
  endorsements: ReadonlyArray<{ id: number; user_id: number; first_name: string | null; rating: string | null }>;
  areas: ReadonlyArray<{ endorsement_id: number; area_id: number; name: string }>;
  facilities: ReadonlyArray<{ user_id: number; area_id: number; facility: string }>;
}): VisitingJson[] {
  const areasOf = new Map<number, Array<{ id: number; name: string }>>();
  for (const a of data.areas) {
    const list = areasOf.get(a.endorsement_id);
    if (list) list.push({ id: a.area_id, name: a.name });
    else areasOf.set(a.endorsement_id, [{ id: a.area_id, name: a.name }]);
  }
  const maes = groupSets(data.facilities.map((f) => [`${f.user_id}|${f.area_id}`, f.facility] as [string, string]));
  return data.endorsements.map((e) => ({
    user_id: e.user_id,
    first_name: e.first_name,
    rating: e.rating ?? '',
    areas: (areasOf.get(e.id) ?? [])
      .sort((a, b) => byteOrder(a.name, b.name))
      .map((a) => ({ name: a.name, maes: sortedList(maes.get(`${e.user_id}|${a.id}`) ?? []) })),
  }));
}
