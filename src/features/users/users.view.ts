// GET /api/users: rows to the users array, each user typed by the User model (src/features/users/users.schema.ts).
import type { ApiVariant } from '../../config.js';
import { ratingCode } from '../members/domain/ratings.js';
import { isoMicros as iso } from '../../core/domain/time.js';
import { trainingStatusDescription } from '../members/domain/training-status.js';
import { type Includes } from '../members/domain/index.js';
import type { AreaRow, UsersData } from './users.repository.js';
import type { Endorsements, Training, User } from './users.schema.js';
import { byteOrder, groupBy } from '../../core/domain/collections.js';

function emptyEndorsements(variant: ApiVariant): Endorsements {
  const base: Endorsements = { visiting: [], examiner: [], training: { solo: null, s1: null } };
  // The older variant calls facility endorsements "masc" (docs/api.md, variants).
  if (variant === 'older') base.masc = [];
  else base.facility = [];
  return base;
}

function endorsementsByUser(data: UsersData, areaName: Map<number, string>, variant: ApiVariant): Map<number, Endorsements> {
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
  const out = new Map<number, Endorsements>();
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

/** Each training's ratings: its rating codes, then its facility names (contract §18). */
function trainingsByUser(data: UsersData, areaName: Map<number, string>): Map<number, Training[]> {
  const out = new Map<number, Training[]>();
  const facilitiesOf = groupBy(
    data.trainingFacilities,
    (r) => r.training_id,
    (r) => r.name,
  );
  const withFacilities: Array<[Training, number]> = [];
  // Rows come one per trained rating, ordered by user and training: consecutive rows of a
  // training share its id.
  let lastId: number | null = null;
  let current: Training | null = null;
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
      withFacilities.push([current, t.id]);
    }
    if (t.rating !== null) current.ratings.push(ratingCode(t.rating));
  }
  for (const [training, id] of withFacilities) training.ratings.push(...(facilitiesOf.get(id) ?? []));
  return out;
}

// An object for JSON keys taken from data (area names): only a key named __proto__ needs a null prototype.
function keyedObjectFactory(keys: readonly string[]): () => Record<string, never> {
  return keys.includes('__proto__') ? () => Object.create(null) as Record<string, never> : () => ({});
}

/** atc_active_areas per user. Area names differing only in case share a key, active in either counts. */
function activeAreasByUser(areas: readonly AreaRow[], activity: UsersData['activity']): (userId: number) => Record<string, boolean> {
  const keyOfArea = new Map(areas.map((a) => [a.id, a.name.toLowerCase()]));
  const keys = [...new Set(keyOfArea.values())];
  const activeOf = new Map<number, Set<string>>();
  for (const a of activity) {
    const key = keyOfArea.get(a.area_id);
    if (key === undefined) continue;
    const set = activeOf.get(a.user_id);
    if (set) set.add(key);
    else activeOf.set(a.user_id, new Set([key]));
  }
  const newObject = keyedObjectFactory(keys);
  return (userId) => {
    const out: Record<string, boolean> = newObject();
    for (const key of keys) out[key] = activeOf.get(userId)?.has(key) ?? false;
    return out;
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

/** Rows to the GET /api/users array: each user has exactly the fields its includes ask for. */
export function presentUsers(data: UsersData, includes: Includes, variant: ApiVariant): User[] {
  const areas = [...data.areas].sort((a, b) => byteOrder(a.name, b.name));
  const areaName = new Map(areas.map((a) => [a.id, a.name]));
  const activeAreasOf = includes.activeAreas && variant === 'newer' ? activeAreasByUser(areas, data.activity) : null;
  const rolesOf = includes.roles ? rolesByUser(areas, data.roles) : null;
  const endorsementsOf = includes.endorsements ? endorsementsByUser(data, areaName, variant) : null;
  const noEndorsements = emptyEndorsements(variant);
  const trainingsOf = includes.training ? trainingsByUser(data, areaName) : null;
  const noTrainings: Training[] = [];
  const { email, name, divisions } = includes;

  const out = new Array<User>(data.users.length);
  for (let i = 0; i < data.users.length; i++) {
    const u = data.users[i]!;
    // Every field in the documented order, those not asked for left undefined (JSON.stringify
    // omits them): the type checks every field, and every user has the same shape.
    const json: User = {
      id: u.id,
      email: email ? (u.email ?? null) : undefined,
      first_name: name ? (u.first_name ?? null) : undefined,
      last_name: name ? (u.last_name ?? null) : undefined,
      rating: ratingCode(u.rating),
      region: divisions ? (u.region ?? null) : undefined,
      division: divisions ? (u.division ?? null) : undefined,
      subdivision: divisions ? (u.subdivision ?? null) : undefined,
      atc_active: u.atc_active,
      atc_active_areas: activeAreasOf ? activeAreasOf(u.id) : undefined,
      endorsements: endorsementsOf ? (endorsementsOf.get(u.id) ?? noEndorsements) : undefined,
      roles: rolesOf ? rolesOf(u.id) : undefined,
      training: trainingsOf ? (trainingsOf.get(u.id) ?? noTrainings) : undefined,
    };
    out[i] = json;
  }
  return out;
}
