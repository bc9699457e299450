// Trainings: a queue of students waiting, some in progress, and a history of closed ones.
import { RATINGS, type RatingCode } from '../members/domain/ratings.js';
import type { AreaName } from './catalog.js';
import type { Person } from './people.js';
import { weighted, type Rng } from './random.js';
import { between, daysAgo, iso } from './time.js';
import type { DemoTraining } from './types.js';

export interface TrainingRecord {
  person: Person;
  area: AreaName;
  status: number;
  /** The rating trained for (the first of the training's ratings). */
  target: RatingCode;
}

const NEXT: Partial<Record<RatingCode, RatingCode>> = { OBS: 'S1', S1: 'S2', S2: 'S3', S3: 'C1' };
/** Ratings above C1 are not trained for in a division; refreshers and transfers train at C1. */
const capped = (p: Person): RatingCode => (p.value > RATINGS.C1 ? 'C1' : p.rating);

type TrainingType = 'Standard' | 'Refresh' | 'Transfer' | 'Fast-track' | 'Familiarisation';
const TYPES: TrainingType[] = ['Standard', 'Refresh', 'Transfer', 'Fast-track', 'Familiarisation'];
const openType = weighted<TrainingType>([
  ['Standard', 70],
  ['Refresh', 8],
  ['Transfer', 7],
  ['Fast-track', 5],
  ['Familiarisation', 10],
]);
const OPEN_STATUSES = [0, 1, 2, 3];
const openStatus = weighted([
  [0, 45],
  [1, 15],
  [2, 30],
  [3, 10],
] as const);
const CLOSED_STATUSES = [-1, -2, -3, -4];
const closedStatus = weighted([
  [-1, 55],
  [-2, 15],
  [-3, 20],
  [-4, 10],
] as const);

/** The i-th value: the listed ones first (so every kind appears in a small division), then weighted. */
function covering<T>(rng: Rng, i: number, first: readonly T[], pick: (rng: Rng) => T): T {
  return i < first.length ? first[i]! : pick(rng);
}

export function generateTrainings(
  rng: Rng,
  people: Person[],
  now: number,
  open: number,
): { trainings: DemoTraining[]; records: TrainingRecord[] } {
  const students = people.filter((p) => p.member && p.value <= RATINGS.S3 && p.value >= RATINGS.OBS);
  const pools: Record<TrainingType, Person[]> = {
    Standard: students,
    'Fast-track': students.filter((p) => p.value <= RATINGS.S2),
    Refresh: people.filter((p) => p.member && p.value >= RATINGS.S2),
    Transfer: people.filter((p) => !p.member),
    Familiarisation: people.filter((p) => (p.member && p.value >= RATINGS.S3) || !p.member),
  };
  const graduates = people.filter((p) => p.member && p.value >= RATINGS.S1 && p.value <= RATINGS.C1);
  if (people.length === 0) return { trainings: [], records: [] };

  const trainings: DemoTraining[] = [];
  const records: TrainingRecord[] = [];
  const keys = new Set<string>();
  const openFor = new Set<string>();

  const add = (
    person: Person,
    type: TrainingType,
    status: number,
    ratings: RatingCode[],
    created: number,
    started: number | null,
  ): void => {
    // Natural key (user, area, created_at): nudge the rare collision by a minute.
    while (keys.has(`${person.id}|${person.area}|${created}`)) created -= 60_000;
    keys.add(`${person.id}|${person.area}|${created}`);
    trainings.push({
      user_id: person.id,
      area: person.area,
      type,
      status,
      created_at: iso(created),
      started_at: started === null ? null : iso(started),
      ratings,
    });
    records.push({ person, area: person.area, status, target: ratings[0]! });
  };

  const ratingsFor = (type: TrainingType, p: Person): RatingCode[] => {
    if (type === 'Standard') return [NEXT[p.rating] ?? capped(p)];
    if (type === 'Fast-track') {
      const next = NEXT[p.rating] ?? capped(p);
      const after = NEXT[next];
      return after && rng.chance(0.5) ? [next, after] : [next];
    }
    return [capped(p)];
  };

  for (let i = 0; i < open; i++) {
    let type = covering(rng, i, TYPES, openType);
    if (pools[type].length === 0) type = 'Standard';
    const pool = pools[type].length > 0 ? pools[type] : people;
    // A student waits in one queue per area: prefer someone without an open training there.
    let person = rng.pick(pool);
    for (let tries = 0; tries < 8 && openFor.has(`${person.id}|${person.area}`); tries++) person = rng.pick(pool);
    openFor.add(`${person.id}|${person.area}`);

    const status = covering(rng, i, OPEN_STATUSES, openStatus);
    // Queues are long: a student may wait more than a year before training starts.
    const created = status === 0 ? daysAgo(rng, now, 1, 540) : daysAgo(rng, now, 45, 700);
    const started = status === 0 ? null : between(rng, created, now, 0.1, 0.8);
    add(person, type, status, ratingsFor(type, person), created, started);
    // A rated student in training controls in the training's area.
    if (status >= 1 && person.value >= RATINGS.S1 && !person.active.includes(person.area)) {
      person.active.push(person.area);
      person.user.atc_active_areas[person.area] = true;
    }
  }

  const closed = Math.round(open / 3);
  for (let i = 0; i < closed; i++) {
    const status = covering(rng, i, CLOSED_STATUSES, closedStatus);
    const created = daysAgo(rng, now, 90, 1500);
    if (status === -1 && graduates.length > 0) {
      // Completed: the student now holds the rating trained for.
      const person = rng.pick(graduates);
      add(person, 'Standard', status, [capped(person)], created, between(rng, created, now, 0.02, 0.3));
      continue;
    }
    const type = pools.Standard.length > 0 ? 'Standard' : 'Refresh';
    const person = rng.pick(pools[type].length > 0 ? pools[type] : people);
    const started = status === -2 || rng.chance(0.5) ? between(rng, created, now, 0.02, 0.3) : null;
    add(person, type, status, ratingsFor(type, person), created, started);
  }
  return { trainings, records };
}
