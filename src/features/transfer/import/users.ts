// The users section of an import file.
import { MAX_CID } from '../../../core/domain/limits.js';
import { type Obj, fail, gives, instant, int, isObj, notNull, nullableStr, rating, record, refuseNul } from './fields.js';
import type { ImportUser, UserFields } from './plan.js';
import { pathKey } from './quote.js';

const USER_FIELDS = [
  'id',
  'email',
  'first_name',
  'last_name',
  'rating',
  'region',
  'division',
  'subdivision',
  'atc_active_areas',
  'atc_grace_start',
  'last_login',
  'created_at',
  'updated_at',
] as const;

const EMAIL_RE = /^[^\s@]+@[^\s@]+$/;

export function parseUser(u: unknown, path: string): ImportUser {
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
  // When the member last signed in (the system the division moves from knew it).
  if (gives(o, 'last_login')) set.last_login_at = instant(o, 'last_login', path, true);
  // When Sector first stored the user and last changed the row, kept as given (an export writes them).
  for (const key of ['created_at', 'updated_at'] as const) {
    if (gives(o, key)) {
      notNull(o, key, path);
      set[key] = instant(o, key, path, false)!;
    }
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
  // area -> when its grace began, or null for none, for areas this record sets active (not named:
  // the grace starts now).
  const graceGiven = o.atc_grace_start ?? {};
  if (!isObj(graceGiven)) fail(`${path}.atc_grace_start`, 'must be an object of area name -> ISO instant or null');
  const atc_grace_start = new Map<string, number | null>();
  for (const area of Object.keys(graceGiven)) {
    const at = instant(graceGiven as Obj, area, `${path}.atc_grace_start`, true);
    if (!atc_active_areas.some(([a, active]) => a === area && active))
      fail(`${path}.atc_grace_start.${pathKey(area)}`, 'only for an area that atc_active_areas sets true');
    atc_grace_start.set(area, at);
  }
  return { id, set, atc_active_areas, atc_grace_start, path };
}
