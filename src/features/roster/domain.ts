// Pure rules of the roster sync (contract §15): what a roster page and a member response must look
// like, and what they change in the stored users.
import { isRatingValue } from '../members/domain/ratings.js';
import type { MembershipSettings } from '../members/domain/membership.js';
import { oneLineName } from '../members/domain/names.js';

/** The users' columns the roster gives. */
export interface RosterFields {
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  rating: number;
  region: string | null;
  division: string | null;
  subdivision: string | null;
}

export interface RosterMember extends RosterFields {
  id: number;
}

export type StoredUser = RosterMember & { email: string | null; first_name: string | null; last_name: string | null };

export const ROSTER_FIELDS = ['email', 'first_name', 'last_name', 'rating', 'region', 'division', 'subdivision'] as const;

/** A response of the network that is not the documented shape. */
export class RosterShapeError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function cidOf(v: unknown, where: string): number {
  const n = typeof v === 'string' && /^\d{1,12}$/.test(v) ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) throw new RosterShapeError(`${where}.id is not a member id`);
  return n;
}

function textOrNull(o: Obj, field: string, where: string, optional: boolean): string | null | undefined {
  const v = o[field];
  if (v === undefined && optional) return undefined;
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string' || v.length > 500) throw new RosterShapeError(`${where}.${field} is not a string`);
  return v === '' ? null : v;
}

/** A member the sync leaves as it is, and why (named in its report). */
export interface SkippedMember {
  id: number;
  reason: string;
}

/** A member response: the member, or skipped when its rating is a number outside the list. */
export type ParsedMember = { member: RosterMember; skipped?: undefined } | { skipped: SkippedMember };

/** A roster or /v2/members member. An unknown rating skips that member; any other wrong shape is a broken response. */
export function parseMember(v: unknown, where: string, withPersonal: boolean): ParsedMember {
  if (!isObj(v)) throw new RosterShapeError(`${where} is not an object`);
  const id = cidOf(v.id, where);
  const rating = typeof v.rating === 'string' && /^-?\d+$/.test(v.rating) ? Number(v.rating) : v.rating;
  if (typeof rating !== 'number' || !Number.isInteger(rating)) throw new RosterShapeError(`${where}.rating is not a rating number`);
  if (!isRatingValue(rating)) return { skipped: { id, reason: `rating ${rating} is not a known rating` } };
  const member: RosterMember = {
    id,
    rating,
    region: textOrNull(v, 'region_id', where, false) ?? null,
    division: textOrNull(v, 'division_id', where, false) ?? null,
    subdivision: textOrNull(v, 'subdivision_id', where, false) ?? null,
  };
  for (const [field, column] of [
    ['name_first', 'first_name'],
    ['name_last', 'last_name'],
    ['email', 'email'],
  ] as const) {
    let value = textOrNull(v, field, where, !withPersonal);
    // Names are stored on one line, as sign-in stores them (a NUL would fail the whole sync on PostgreSQL).
    if (value && column !== 'email') value = oneLineName(value) || null;
    if (value !== undefined) member[column] = value;
  }
  return { member };
}

/** One page of `GET /v2/orgs/{division|subdivision}/{id}`: `{"items": [...], "count": N}`. */
export function parseRosterPage(
  v: unknown,
  where: string,
): { items: RosterMember[]; skipped: SkippedMember[]; listed: number; count: number } {
  if (!isObj(v) || !Array.isArray(v.items)) throw new RosterShapeError(`${where} has no items array`);
  const count = v.count;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) throw new RosterShapeError(`${where} has no count`);
  const items: RosterMember[] = [];
  const skipped: SkippedMember[] = [];
  v.items.forEach((item, i) => {
    const parsed = parseMember(item, `${where}.items[${i}]`, true);
    if (parsed.skipped) skipped.push(parsed.skipped);
    else items.push(parsed.member);
  });
  return { items, skipped, listed: v.items.length, count };
}

/** Whether the user is a member of this division (contract §8), from the fields the roster gives. */
export function isMember(u: Pick<RosterFields, 'division' | 'subdivision'>, settings: MembershipSettings): boolean {
  if (settings.subdivisions.length > 0) return u.subdivision !== null && settings.subdivisions.includes(u.subdivision);
  if (settings.division !== null) return u.division === settings.division;
  return true;
}

export interface UserChange {
  id: number;
  /** null: a new user. */
  before: Partial<StoredUser> | null;
  after: Partial<StoredUser>;
}

/** What the member's stored row becomes: only the fields that differ (null when none does). */
export function changeOf(stored: StoredUser | undefined, member: RosterMember): UserChange | null {
  if (stored === undefined) {
    // A roster member carries every field already: kept as it is (a roster of 100,000 is not copied).
    const after =
      'email' in member && 'first_name' in member && 'last_name' in member
        ? member
        : { email: null, first_name: null, last_name: null, ...member };
    return { id: member.id, before: null, after };
  }
  const before: Partial<StoredUser> = {};
  const after: Partial<StoredUser> = {};
  for (const field of ROSTER_FIELDS) {
    const value = member[field];
    if (value === undefined || value === stored[field]) continue;
    (before as Record<string, unknown>)[field] = stored[field];
    (after as Record<string, unknown>)[field] = value;
  }
  return Object.keys(after).length === 0 ? null : { id: member.id, before, after };
}

/** A user the network does not know any more (404): no longer a member of any division. */
export function goneChange(stored: StoredUser): UserChange | null {
  if (stored.division === null && stored.subdivision === null) return null;
  return {
    id: stored.id,
    before: { division: stored.division, subdivision: stored.subdivision },
    after: { division: null, subdivision: null },
  };
}

/** More than half of the current members would stop being members: a broken response, most likely. */
export function removesTooMany(leaving: number, members: number): boolean {
  return members > 0 && leaving * 2 > members;
}

/** Which users are members (contract §8), as a column and its values, for the database to count. */
export function membershipFilter(settings: MembershipSettings): { column: 'division' | 'subdivision'; values: string[] } | null {
  if (settings.subdivisions.length > 0) return { column: 'subdivision', values: [...settings.subdivisions] };
  if (settings.division !== null) return { column: 'division', values: [settings.division] };
  return null;
}

/**
 * What the network said of one member, as staged: a roster entry or a leaver's own record, or
 * `unknown` when the network responded with 404 for a leaver.
 */
export type StagedResult = { kind: 'roster' | 'member'; member: RosterMember } | { kind: 'unknown'; id: number };

/** The change a staged result makes to the stored user (undefined: no such user yet). */
export function stagedChange(result: StagedResult, stored: StoredUser | undefined): UserChange | null {
  if (result.kind !== 'unknown') return changeOf(stored, result.member);
  return stored === undefined ? null : goneChange(stored);
}
