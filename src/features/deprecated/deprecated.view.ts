// The deprecated endpoints (docs/api.md, deprecated endpoints): the lists older integrations
// still read, each typed by its model in src/features/deprecated/deprecated.schema.ts.
import { isoMicros } from '../../core/domain/time.js';
import { isExpired, isListedAsRecent } from '../endorsements/times.domain.js';
import { LEGACY_ROLE_LISTS, LEGACY_ROLES, type LegacyRole } from '../members/domain/index.js';
import type { TrainingEndorsementCandidate } from './deprecated.repository.js';
import type { ExaminerArea, FacilityHolder, LegacyRoles, LegacyTrainingEndorsement, VisitingEndorsement } from './deprecated.schema.js';
import { byteOrder, groupBy, groupSets, sortedList } from '../../core/domain/collections.js';

export function presentLegacyRoles(rows: ReadonlyArray<{ user_id: number; role: LegacyRole; area: string }>): LegacyRoles {
  const out: LegacyRoles = { mentors: [], moderators: [], admins: [] };
  for (const role of LEGACY_ROLES) {
    const byUser = groupSets(rows.filter((r) => r.role === role).map((r) => [r.user_id, r.area] as [number, string]));
    out[LEGACY_ROLE_LISTS[role]] = [...byUser].sort(([a], [b]) => a - b).map(([id, areas]) => ({ id, fir: sortedList(areas) }));
  }
  return out;
}

export function presentFacilityHolders(rows: ReadonlyArray<{ user_id: number; facility: string; atc_active: boolean }>): FacilityHolder[] {
  const active = new Map(rows.map((r) => [r.user_id, r.atc_active]));
  const byUser = groupSets(rows.map((r) => [r.user_id, r.facility] as [number, string]));
  return [...byUser]
    .sort(([a], [b]) => a - b)
    .map(([user_id, facilities]) => ({ user_id, user_atc_active: active.get(user_id) ?? false, ratings: sortedList(facilities) }));
}

/** The type names of the system these endorsements were first published by. */
const LEGACY_TYPE: { [K in 'solo' | 's1']: Uppercase<K> } = { solo: 'SOLO', s1: 'S1' };

export function presentTrainingEndorsements<T extends 'solo' | 's1'>(
  type: T,
  data: { endorsements: readonly TrainingEndorsementCandidate[]; positions: ReadonlyArray<{ endorsement_id: number; callsign: string }> },
  now: number,
): Array<LegacyTrainingEndorsement<Uppercase<T>>> {
  const positionsOf = groupBy(
    data.positions,
    (p) => p.endorsement_id,
    (p) => p.callsign,
  );
  return data.endorsements
    .filter((e) => isListedAsRecent(e, now))
    .map((e) => ({
      user_id: e.user_id,
      type: LEGACY_TYPE[type],
      valid_from: isoMicros(e.valid_from),
      valid_to: e.valid_to === null ? null : isoMicros(e.valid_to),
      expired: isExpired(e, now),
      revoked: Boolean(e.revoked),
      positions: positionsOf.get(e.id) ?? [],
    }));
}

export function presentExaminers(data: {
  areas: ReadonlyArray<{ id: number; name: string }>;
  examiners: ReadonlyArray<{ area_id: number; user_id: number; first_name: string | null; rating: string | null }>;
}): ExaminerArea[] {
  const byArea = new Map<number, ExaminerArea['examiners']>();
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

export function presentVisiting(data: {
  endorsements: ReadonlyArray<{ id: number; user_id: number; first_name: string | null; rating: string | null }>;
  areas: ReadonlyArray<{ endorsement_id: number; area_id: number; name: string }>;
  facilities: ReadonlyArray<{ user_id: number; area_id: number; facility: string }>;
}): VisitingEndorsement[] {
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
