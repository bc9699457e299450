// Turns a Control Center database's rows into Sector's import format (contract §19). Pure: the
// unclean rows are fixed or skipped here, each with its reason in the report.
import { isRatingValue, ratingCode } from '../../members/domain/ratings.js';
import { parseIsoInstant } from '../../../core/domain/time.js';
import { parseEndorsement } from '../import/endorsements.js';
import { parsePosition } from '../import/positions.js';
import { text } from '../import/fields.js';
import type { ImportEndorsement, ImportPlan, ImportPosition, ImportRole, ImportUser } from '../import/plan.js';
import { parseRole } from '../import/roles.js';
import { parseUser } from '../import/users.js';
import { planActivity, planTrainings } from './map-trainings.js';
import { planFeedback, planTasks } from './map-tasks.js';
import { type BookingPlanner, planBookings } from './map-bookings.js';
import { planSweatbox, planTiers, planVotes } from './map-community.js';
import type { ControlCenterData, Row } from './read.js';
import { fits, flag, instant, kind, type KindReport, num, rowLabel, str, zeroDates } from './values.js';

export type { KindReport };

export interface MovedApiKey {
  token: string;
  name: string;
  readOnly: boolean;
  createdAt: string;
}

export interface ControlCenterPlan {
  version: string;
  /**
   * Everything but bookings, checked as the import format's: each record parsed as it is mapped
   * (one that does not fit is skipped), its path naming its Control Center row (`users[id=10000001]`).
   */
  parsed: ImportPlan;
  /** Bookings: the first pass over pages of a few columns, then whole rows mapped a page at a time. */
  bookings: BookingPlanner;
  apiKeys: MovedApiKey[];
  report: Record<string, KindReport>;
  settings: Record<string, string>;
}

const GROUPS: Record<number, string> = { 1: 'Administrator', 2: 'Moderator', 3: 'Mentor', 4: 'Buddy' };
const ROLES: Record<string, string> = { admin: 'Administrator', moderator: 'Moderator', mentor: 'Mentor', buddy: 'Buddy' };

/** Control Center settings → the environment variables that carry them in Sector. */
const SETTINGS: Record<string, string> = {
  atcActivityRequirement: 'ACTIVITY_HOURS',
  atcActivityQualificationPeriod: 'ACTIVITY_PERIOD_MONTHS',
  atcActivityGracePeriod: 'ACTIVITY_GRACE_MONTHS',
  trainingSubDivisions: 'SUBDIVISIONS',
};

export function planControlCenterImport(cc: ControlCenterData, files?: (key: string) => Array<Record<string, unknown>>): ControlCenterPlan {
  const report: Record<string, KindReport> = {};
  const areaName = new Map(cc.areas.map((a) => [num(a.id), String(a.name).trim()]));
  const ratingById = new Map(cc.ratings.map((r) => [num(r.id), r]));

  const areas = [...new Set(areaName.values())];
  report.areas = { ...kind(cc.areas.length), imported: areas.length };
  // A name that cannot be an area's stops the move: its positions, trainings and roles need it.
  for (const name of areas)
    text(name, rowLabel('areas', cc.areas.find((a) => String(a.name).trim() === name)!.id), 100, 'a non-empty area name');

  const users: ImportUser[] = [];
  const userIds = new Set<number>();
  const userName = new Map<number, string>();
  report.users = kind(cc.users.length);
  for (const u of cc.users) {
    const id = num(u.id);
    const row = `user ${id}`;
    const label = rowLabel('users', u.id);
    if (!isRatingValue(num(u.rating))) {
      report.users.skipped.push({ row, reason: `unknown rating ${String(u.rating)}` });
      continue;
    }
    const user = {
      id,
      email: str(u.email),
      first_name: str(u.first_name),
      last_name: str(u.last_name),
      rating: ratingCode(num(u.rating)),
      region: str(u.region),
      division: str(u.division),
      subdivision: str(u.subdivision),
      last_login: instant(u.last_login),
    };
    if (!fits(report.users, row, label, () => users.push(parseUser(user, label)))) continue;
    zeroDates(report.users, row, u, [], ['last_login']);
    userIds.add(id);
    userName.set(id, [str(u.first_name), str(u.last_name)].filter((x) => x !== null).join(' '));
  }
  report.users.imported = users.length;

  // Callsigns are not unique in Control Center: the first position keeps it, later ones point to it.
  const positions: ImportPosition[] = [];
  const callsignOf = new Map<number, string>();
  const firstWith = new Map<string, number>();
  report.positions = kind(cc.positions.length);
  for (const p of cc.positions) {
    const id = num(p.id);
    const callsign = String(p.callsign).trim().toUpperCase();
    const first = firstWith.get(callsign);
    if (first !== undefined) {
      callsignOf.set(id, callsign);
      report.positions.skipped.push({
        row: `position ${id} ${callsign}`,
        reason: `callsign already used by position ${first}; its bookings and endorsements go to that one`,
      });
      continue;
    }
    const frequency = str(p.frequency);
    const facility = p.required_facility_rating_id == null ? null : ratingById.get(num(p.required_facility_rating_id));
    const position = {
      callsign,
      name: String(p.name).trim(),
      frequency: frequency ?? '',
      area: p.area_id == null ? null : (areaName.get(num(p.area_id)) ?? null),
      rating: isRatingValue(num(p.rating)) ? ratingCode(num(p.rating)) : 'S1',
      required_facility: facility ? String(facility.name).trim() : null,
    };
    const label = rowLabel('positions', p.id);
    if (!fits(report.positions, `position ${id} ${callsign}`, label, () => positions.push(parsePosition(position, label)))) continue;
    if (frequency === null)
      report.positions.changed.push({ row: `position ${id} ${callsign}`, reason: 'no frequency: imported with an empty one' });
    firstWith.set(callsign, id);
    callsignOf.set(id, callsign);
  }
  report.positions.imported = positions.length;

  const endorsements = planEndorsements(cc, report, userIds, callsignOf, ratingById, areaName);
  const roles = planRoles(cc, report, userIds, areaName);
  const known = { userIds, areaName, ratingById, callsignOf, userName };
  const trainings = planTrainings(cc, report, known, files);
  const activity = planActivity(cc, report, known);
  // Tasks (§21) and feedback (§23), after the trainings and positions they name.
  const tasks = planTasks(cc, report, known, trainings);
  const feedback = planFeedback(cc, report, known);
  for (const u of users) {
    const a = activity.get(u.id);
    if (!a) continue;
    u.atc_active_areas = Object.entries(a.active);
    u.atc_grace_start = new Map(Object.entries(a.grace).map(([area, at]) => [area, parseIsoInstant(at)]));
  }
  const bookings = planBookings((report.bookings = kind(0)), userIds, callsignOf);
  const apiKeys = planApiKeys(cc, report);

  const settings: Record<string, string> = {};
  for (const s of cc.settings) {
    const env = SETTINGS[String(s.key)];
    if (env && str(s.value) !== null) settings[env] = String(s.value).trim();
  }
  const parsed: ImportPlan = { areas, users, positions, endorsements, roles, trainings, bookings: [], tasks, feedback };
  // Votes, sweatbox bookings and facility tiers (contracts §22, §23).
  parsed.votes = planVotes(cc, report, known);
  parsed.sweatbox = planSweatbox(cc, report, known);
  parsed.facilities = planTiers(cc, report);
  return { version: cc.version, parsed, bookings, apiKeys, report, settings };
}

function planEndorsements(
  cc: ControlCenterData,
  report: Record<string, KindReport>,
  userIds: Set<number>,
  callsignOf: Map<number, string>,
  ratingById: Map<number, Row>,
  areaName: Map<number, string>,
): ImportEndorsement[] {
  const links = (rows: Row[], key: string) => {
    const m = new Map<number, number[]>();
    for (const r of rows) m.set(num(r.endorsement_id), [...(m.get(num(r.endorsement_id)) ?? []), num(r[key])]);
    return m;
  };
  const ratings = links(cc.endorsementRatings, 'rating_id');
  const positions = links(cc.endorsementPositions, 'position_id');
  const areas = links(cc.endorsementAreas, 'area_id');
  const out: ImportEndorsement[] = [];
  const seen = new Set<string>();
  const r = (report.endorsements = kind(cc.endorsements.length));
  for (const e of cc.endorsements) {
    const id = num(e.id);
    const row = `endorsement ${id}`;
    const type = String(e.type).toLowerCase();
    const userId = num(e.user_id);
    if (!userIds.has(userId)) {
      r.skipped.push({ row, reason: `user ${userId} is not imported` });
      continue;
    }
    const key = `${userId}/${type === 'masc' ? 'facility' : type}/${String(e.valid_from)}`;
    if (seen.has(key)) {
      r.skipped.push({ row, reason: 'same user, type and valid_from as an earlier endorsement' });
      continue;
    }
    const rated = (ratings.get(id) ?? []).map((rid) => ratingById.get(rid)).filter((x): x is Row => x !== undefined);
    const record: Record<string, unknown> = {
      user_id: userId,
      type: type === 'masc' ? 'facility' : type,
      valid_from: instant(e.valid_from),
      valid_to: instant(e.valid_to),
      issued_by: e.issued_by == null ? null : num(e.issued_by),
    };
    if (type === 'facility' || type === 'masc') {
      const facility = rated.find((x) => x.vatsim_rating == null);
      if (!facility) {
        r.skipped.push({ row, reason: 'facility endorsement without a facility rating' });
        continue;
      }
      record.rating = String(facility.name).trim();
    } else if (type === 'visiting' || type === 'examiner') {
      const rating = rated.find((x) => x.vatsim_rating != null && isRatingValue(num(x.vatsim_rating)));
      if (!rating) {
        r.skipped.push({ row, reason: `${type} endorsement without a rating` });
        continue;
      }
      record.rating = ratingCode(num(rating.vatsim_rating));
      record.areas = (areas.get(id) ?? []).map((a) => areaName.get(a)).filter((a) => a !== undefined);
    } else if (type === 'solo' || type === 's1') {
      record.positions = [...new Set((positions.get(id) ?? []).map((p) => callsignOf.get(p)).filter((c) => c !== undefined))];
    } else {
      r.skipped.push({ row, reason: `unknown type ${String(e.type)}` });
      continue;
    }
    if (flag(e.revoked) || flag(e.expired)) {
      record.revoked = true;
      record.revoked_at = instant(e.valid_to) ?? instant(e.updated_at) ?? instant(e.valid_from);
    }
    const label = rowLabel('endorsements', e.id);
    const zero = zeroDates(r, row, e, ['valid_from'], ['valid_to']);
    if (zero !== null) r.skipped.push({ row, reason: zero });
    if (zero !== null || !fits(r, row, label, () => out.push(parseEndorsement(record, label)))) continue;
    seen.add(key);
  }
  r.imported = out.length;
  return out;
}

function planRoles(
  cc: ControlCenterData,
  report: Record<string, KindReport>,
  userIds: Set<number>,
  areaName: Map<number, string>,
): ImportRole[] {
  const out: ImportRole[] = [];
  const r = (report.roles = kind(cc.roles.length));
  for (const x of cc.roles) {
    const userId = num(x.user_id);
    const name = cc.version === '7.x' ? ROLES[String(x.role)] : GROUPS[num(x.group_id)];
    const what = cc.version === '7.x' ? `role "${String(x.role)}"` : `group ${String(x.group_id)}`;
    const row = `${what} of user ${userId}`;
    if (!name) r.skipped.push({ row, reason: 'Sector has no such role' });
    else if (!userIds.has(userId)) r.skipped.push({ row, reason: `user ${userId} is not imported` });
    else {
      const area = x.area_id == null ? null : (areaName.get(num(x.area_id)) ?? null);
      if (area === null && name !== 'Administrator') r.skipped.push({ row, reason: 'no area' });
      else {
        // A 7.x admin is division-wide; a 6.x group 1 was given per area.
        const label =
          cc.version === '7.x'
            ? rowLabel('role_user', x.id)
            : `permissions[user_id=${userId},area_id=${String(x.area_id)},group_id=${String(x.group_id)}]`;
        const role = { user_id: userId, area: cc.version === '7.x' && name === 'Administrator' ? null : area, role: name };
        fits(r, row, label, () => out.push(parseRole(role, label)));
      }
    }
  }
  r.imported = out.length;
  return out;
}

/**
 * API keys: Sector's names are unique, Control Center's are not; a repeated name gets the key's
 * creation date (and a number if still taken), so every token keeps working. Each rename is reported.
 */
function planApiKeys(cc: ControlCenterData, report: Record<string, KindReport>): MovedApiKey[] {
  const r = (report.api_keys = kind(cc.apiKeys.length));
  const taken = new Set<string>();
  const out: MovedApiKey[] = [];
  for (const k of cc.apiKeys) {
    const token = String(k.id).trim();
    if (!/^[0-9a-fA-F-]{8,64}$/.test(token)) {
      r.skipped.push({ row: `API key ${str(k.name) ?? ''}`.trim(), reason: 'its token is not a Control Center key' });
      continue;
    }
    const createdAt = instant(k.created_at) ?? new Date(0).toISOString();
    const wanted = (str(k.name) ?? 'Control Center key').slice(0, 90);
    let name = wanted;
    if (taken.has(name.toLowerCase())) name = `${wanted} (${createdAt.slice(0, 10)})`;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${wanted} (${createdAt.slice(0, 10)}, ${n})`;
    if (name !== wanted)
      r.changed.push({
        row: `API key "${wanted}" created ${createdAt.slice(0, 10)}`,
        reason: `name already used by another key: imported as "${name}"`,
      });
    taken.add(name.toLowerCase());
    out.push({ token, name, readOnly: flag(k.read_only), createdAt });
  }
  r.imported = out.length;
  return out;
}
