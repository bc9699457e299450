// Endorsements of every type, current and historic: most active, some expired, a few revoked.
import { RATINGS, type RatingCode } from '../members/domain/ratings.js';
import { AREAS, approachFacility, MAJOR_AIRPORTS, towerFacility, type AreaName } from './catalog.js';
import type { Person } from './people.js';
import { weighted, type Rng } from './random.js';
import { DAY, between, daysAgo, iso } from './time.js';
import type { TrainingRecord } from './trainings.js';
import type { DemoEndorsement, DemoEndorsementType, DemoPosition } from './types.js';

const TYPES: DemoEndorsementType[] = ['facility', 'visiting', 'examiner', 'solo', 's1'];
const endorsementType = weighted<DemoEndorsementType>([
  ['facility', 40],
  ['visiting', 15],
  ['examiner', 10],
  ['solo', 20],
  ['s1', 15],
]);
const MAJORS = Object.keys(MAJOR_AIRPORTS);
const EXAMINED: RatingCode[] = ['S2', 'S3', 'C1'];
const capped = (p: Person): RatingCode => (p.value > RATINGS.C1 ? 'C1' : p.rating);

interface Validity {
  from: number;
  to: number | null;
  revoked: boolean;
}

/** Facility, visiting and examiner endorsements: issued long ago, usually without an end. */
function longLived(rng: Rng, now: number): Validity {
  const from = daysAgo(rng, now, 7, 1500);
  const r = rng.next();
  if (r < 0.05) return { from, to: null, revoked: true };
  if (r < 0.18) return { from, to: between(rng, from, now, 0.2, 0.95), revoked: false };
  if (r < 0.3) return { from, to: Math.floor(now / DAY) * DAY + rng.int(10, 400) * DAY, revoked: false };
  return { from, to: null, revoked: false };
}

/** An endorsement that has ended: expired, or revoked. */
function historic(rng: Rng, now: number): Validity {
  const from = daysAgo(rng, now, 30, 1500);
  return rng.chance(0.2) ? { from, to: null, revoked: true } : { from, to: between(rng, from, now, 0.2, 0.95), revoked: false };
}

/**
 * Solo and S1 endorsements are short. A student in training holds a current one (or one that just ran
 * out); anyone else's is history from an earlier training.
 */
function shortLived(rng: Rng, now: number, days: number, current: boolean): Validity {
  const from = current ? daysAgo(rng, now, 1, days * 1.3) : daysAgo(rng, now, days + 1, 720);
  return { from, to: from + days * DAY, revoked: rng.chance(0.05) };
}

/**
 * When a revoked endorsement was revoked: most of the way through its validity, or to now for an
 * open-ended one. A formula, not a draw, so the rest of the demo stays the same.
 */
function revokedAt(v: Validity, now: number): number {
  const end = Math.min(v.to ?? now, now);
  return end <= v.from ? v.from : v.from + Math.floor((end - v.from) * 0.7);
}

function otherArea(rng: Rng, area: AreaName): AreaName[] {
  const other = rng.pick(AREAS);
  return other === area ? [] : [other];
}

/** What a facility, visiting or examiner endorsement says, and the key of "the same one". */
function longLivedDetails(rng: Rng, type: DemoEndorsementType, person: Person): { key: string; rating: string; areas: string[] } {
  if (type === 'facility') {
    // Usually the major airport of the home area; Iceland has none, and some hold another one.
    const home = MAJORS.find((m) => MAJOR_AIRPORTS[m] === person.area);
    const airport = home !== undefined && rng.chance(0.9) ? home : rng.pick(MAJORS);
    const name = person.value >= RATINGS.S3 && rng.chance(0.5) ? approachFacility(airport) : towerFacility(airport);
    return { key: `${person.id}|${name}`, rating: name, areas: [] };
  }
  if (type === 'visiting') {
    const areas = [person.area, ...(rng.chance(0.25) ? otherArea(rng, person.area) : [])];
    return { key: `${person.id}|visiting`, rating: capped(person), areas };
  }
  const rating = rng.pick(EXAMINED.filter((r) => RATINGS[r] <= person.value));
  const areas = [person.area, ...(rng.chance(0.2) ? otherArea(rng, person.area) : [])];
  return { key: `${person.id}|examiner|${rating}`, rating, areas };
}

export function generateEndorsements(
  rng: Rng,
  people: Person[],
  trainings: TrainingRecord[],
  positions: readonly DemoPosition[],
  now: number,
  total: number,
): DemoEndorsement[] {
  const byAreaRating = new Map<string, string[]>();
  for (const p of positions) {
    const key = `${p.area}|${p.rating}`;
    byAreaRating.set(key, [...(byAreaRating.get(key) ?? []), p.callsign]);
  }
  const positionsFor = (area: AreaName, rating: RatingCode): string[] => {
    const local = byAreaRating.get(`${area}|${rating}`);
    return local ?? positions.filter((p) => p.rating === rating).map((p) => p.callsign);
  };

  // Solo endorsements go to students well into their training, S1 endorsements to new students.
  const soloTrainings = trainings.filter((t) => t.status >= 2 && ['S2', 'S3', 'C1'].includes(t.target));
  const s1Trainings = trainings.filter((t) => t.status >= 1 && t.target === 'S1');
  const members = people.filter((p) => p.member);
  const pools: Record<DemoEndorsementType, Person[]> = {
    facility: members.filter((p) => p.value >= RATINGS.S2),
    visiting: people.filter((p) => !p.member),
    examiner: members.filter((p) => p.value >= RATINGS.C1),
    solo: members.filter((p) => p.value >= RATINGS.S1 && p.value <= RATINGS.S3),
    s1: members.filter((p) => p.value === RATINGS.OBS),
  };
  const available = TYPES.filter(
    (t) => pools[t].length > 0 || (t === 'solo' && soloTrainings.length > 0) || (t === 's1' && s1Trainings.length > 0),
  );
  if (available.length === 0) return [];

  // Each student in training gets one current endorsement before anyone gets a second.
  const shuffled = (list: TrainingRecord[]): TrainingRecord[] =>
    list
      .map((t) => [rng.next(), t] as const)
      .sort((a, b) => a[0] - b[0])
      .map(([, t]) => t);
  const unusedSolo = shuffled(soloTrainings);
  const unusedS1 = shuffled(s1Trainings);

  const current = new Set<string>();
  const out: DemoEndorsement[] = [];
  const keys = new Set<string>();
  const add = (
    person: Person,
    type: DemoEndorsementType,
    v: Validity,
    rest: Pick<DemoEndorsement, 'rating' | 'areas' | 'positions'>,
  ): void => {
    // Natural key (user, type, valid_from): nudge the rare collision back by a minute.
    let from = v.from;
    while (keys.has(`${person.id}|${type}|${from}`)) from -= 60_000;
    keys.add(`${person.id}|${type}|${from}`);
    out.push({
      user_id: person.id,
      type,
      ...rest,
      valid_from: iso(from),
      valid_to: v.to === null ? null : iso(v.to),
      revoked: v.revoked,
      revoked_at: v.revoked ? iso(revokedAt({ ...v, from }, now)) : null,
    });
  };

  for (let i = 0; i < total; i++) {
    let type = i < TYPES.length ? TYPES[i]! : endorsementType(rng);
    if (!available.includes(type)) type = available[i % available.length]!;

    if (type === 'solo' || type === 's1') {
      const linked = type === 'solo' ? soloTrainings : s1Trainings;
      const unused = type === 'solo' ? unusedSolo : unusedS1;
      const pool = pools[type];
      let source: TrainingRecord | undefined;
      if (unused.length > 0 && (pool.length === 0 || rng.chance(0.85))) source = unused.pop();
      else if (pool.length === 0) source = rng.pick(linked);
      let person: Person;
      let area: AreaName;
      let target: RatingCode;
      if (source) {
        ({ person, area, target } = source);
      } else {
        person = rng.pick(pool);
        area = person.area;
        target = type === 's1' ? 'S1' : (['S2', 'S3', 'C1'] as const)[person.value - RATINGS.S1]!;
      }
      const candidates = positionsFor(area, target);
      const count = rng.int(1, Math.min(type === 's1' ? 3 : 2, candidates.length));
      const start = rng.int(0, candidates.length - 1);
      const chosen = Array.from({ length: count }, (_, k) => candidates[(start + k) % candidates.length]!);
      add(person, type, shortLived(rng, now, type === 'solo' ? 30 : 60, source !== undefined), {
        rating: null,
        areas: [],
        positions: chosen,
      });
      continue;
    }

    // A second current endorsement of the same kind would be odd: prefer someone else, else make it history.
    let person = rng.pick(pools[type]);
    let rest = longLivedDetails(rng, type, person);
    for (let tries = 0; tries < 4 && current.has(rest.key); tries++) {
      person = rng.pick(pools[type]);
      rest = longLivedDetails(rng, type, person);
    }
    const validity = current.has(rest.key) ? historic(rng, now) : longLived(rng, now);
    if (!validity.revoked && (validity.to === null || validity.to > now)) current.add(rest.key);
    add(person, type, validity, { rating: rest.rating, areas: rest.areas, positions: [] });
  }
  return out;
}
