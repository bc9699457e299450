// Sign-in with the network's account: what the network tells about a member, and where a member
// may be sent back to afterwards. Pure.
import { RATINGS, ratingValue } from '../members/domain/ratings.js';
import { oneLineName } from '../members/domain/names.js';

/** The member as the network's GET /api/user describes them (docs/sign-in.md). */
export interface NetworkProfile {
  cid: number;
  firstName: string;
  lastName: string;
  email: string | null;
  /** Numeric rating value (features/members/domain/ratings.ts). */
  rating: number;
  region: string | null;
  division: string | null;
  subdivision: string | null;
}

const MAX_TEXT = 200;
const MAX_EMAIL = 320;
const KNOWN_VALUES = new Set<number>(Object.values(RATINGS));

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function text(v: unknown, max: number): string | null {
  if (typeof v !== 'string') return null;
  const t = v.trim();
  return t === '' || t.length > max || /[\u0000-\u001f\u007f]/.test(t) ? null : t;
}

/** A name as the network gives it, on one line (oneLineName). */
function name(v: unknown): string | null {
  return typeof v === 'string' ? text(oneLineName(v), MAX_TEXT) : null;
}

/** An id of the network's region/division/subdivision objects ({"id": "EUR"}); null when absent. */
function placeId(v: unknown): string | null {
  return isObject(v) ? text(v.id, 32) : null;
}

/** The rating's number: its id if known, else its short code's, else the unknown id (signInRefusedFor names it). */
function rating(v: unknown): number | null {
  if (!isObject(v)) return null;
  const id = typeof v.id === 'number' && Number.isInteger(v.id) ? v.id : null;
  if (id !== null && KNOWN_VALUES.has(id)) return id;
  return (typeof v.short === 'string' ? ratingValue(v.short.toUpperCase()) : undefined) ?? id;
}

/**
 * The profile from GET /api/user's response (`{"data": {"cid", "personal", "vatsim"}}`), or null when
 * it is not one: the member is then told the network responded with something unexpected.
 */
export function parseNetworkProfile(body: unknown): NetworkProfile | null {
  const data = isObject(body) ? body.data : undefined;
  if (!isObject(data) || !isObject(data.personal) || !isObject(data.vatsim)) return null;
  const rawCid = typeof data.cid === 'number' ? String(data.cid) : data.cid;
  if (typeof rawCid !== 'string' || !/^[1-9]\d{0,9}$/.test(rawCid)) return null;
  const firstName = name(data.personal.name_first);
  const lastName = name(data.personal.name_last);
  const r = rating(data.vatsim.rating);
  if (firstName === null || lastName === null || r === null) return null;
  return {
    cid: Number(rawCid),
    firstName,
    lastName,
    email: text(data.personal.email, MAX_EMAIL),
    rating: r,
    region: placeId(data.vatsim.region),
    division: placeId(data.vatsim.division),
    subdivision: placeId(data.vatsim.subdivision),
  };
}

/** Suspended and inactive accounts are not signed in (contract §14), nor a rating not in the list. */
export function signInRefusedFor(rating: number): string | null {
  if (!KNOWN_VALUES.has(rating)) {
    return `Your network account has rating number ${rating}, which is not a rating this site knows, so you cannot sign in here.`;
  }
  if (rating === RATINGS.SUS) return 'Your network account is suspended, so you cannot sign in here.';
  if (rating === RATINGS.INA) return 'Your network account is inactive, so you cannot sign in here. Reactivate it with the network first.';
  return null;
}

const MAX_NEXT = 512;
// A path and query of this site: unreserved and sub-delimiter characters, ":", "@", "/", "?" and
// percent escapes. No backslash (browsers read it as "/"), no control characters or spaces
// (browsers drop tabs and newlines, which can turn "/\t/evil" into "//evil").
const PATH_CHARS = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/?]*$/;

/** A path of this site to go to after signing in, else "/": nothing a browser could read as another origin, escaped or not. */
/** Where a sign-in lands (contract §20): the member's home, unless `next` names a page of this site. */
export const MEMBER_HOME = '/my';
export function landingOf(raw: unknown): string {
  return raw === undefined || raw === null || raw === '' ? MEMBER_HOME : safeNext(raw);
}

export function safeNext(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > MAX_NEXT || !PATH_CHARS.test(raw)) return '/';
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return '/';
  }
  if (raw.startsWith('//') || decoded.startsWith('//') || decoded.includes('\\') || /[\u0000-\u001f\u007f]/.test(decoded)) return '/';
  if (decoded.startsWith('/auth/')) return '/';
  return raw;
}
