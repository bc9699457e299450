// A realistic, deterministic demo division (for `npx sector seed:demo` and the benchmarks).
// The output is the import format of docs/import-format.md: parseImport accepts it and runImport loads it.
import { generateBookings } from './bookings.js';
import { generateCommunity } from './community.js';
import { AREAS, DEMO_POSITIONS } from './catalog.js';
import { generateEndorsements } from './endorsements.js';
import { generatePeople } from './people.js';
import { createRng } from './random.js';
import { generateRoles } from './roles.js';
import { generateTrainings } from './trainings.js';
import type { DemoData, DemoScale } from './types.js';

export type { DemoData, DemoScale } from './types.js';

export const DEFAULT_DEMO_SCALE: DemoScale = { users: 300, endorsementsPerUser: 1.2, openTrainings: 30, bookings: 150 };
export const DEFAULT_DEMO_SEED = 1;
const MAX_USERS = 500_000;

function checkScale(scale: DemoScale): void {
  const whole = (name: keyof DemoScale, max: number): void => {
    const v = scale[name];
    if (!Number.isInteger(v) || v < 0 || v > max)
      throw new RangeError(`demo scale: ${name} must be a whole number from 0 to ${max} (got ${v})`);
  };
  whole('users', MAX_USERS);
  whole('openTrainings', 1_000_000);
  whole('bookings', 1_000_000);
  const per = scale.endorsementsPerUser;
  if (!Number.isFinite(per) || per < 0 || per > 50)
    throw new RangeError(`demo scale: endorsementsPerUser must be from 0 to 50 (got ${per})`);
}

/** One PRNG stream per section, so changing one count does not reshuffle the others. */
function stream(seed: number, section: number) {
  return createRng(Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + section * 0x27d4eb2f);
}

export function buildDemoDivision(options: { now: number; seed?: number; scale?: Partial<DemoScale> }): DemoData {
  const { now } = options;
  if (!Number.isFinite(now)) throw new RangeError('demo division: now must be a time in epoch milliseconds');
  const seed = options.seed ?? DEFAULT_DEMO_SEED;
  const scale: DemoScale = { ...DEFAULT_DEMO_SCALE, ...options.scale };
  checkScale(scale);

  const positions = DEMO_POSITIONS.map((p) => ({ ...p }));
  const people = generatePeople(stream(seed, 1), scale.users);
  const { trainings, records } = generateTrainings(stream(seed, 2), people, now, scale.openTrainings);
  const total = Math.round(scale.users * scale.endorsementsPerUser);
  const endorsements = generateEndorsements(stream(seed, 3), people, records, positions, now, total);
  const roles = generateRoles(stream(seed, 4), people);
  const bookings = generateBookings(stream(seed, 5), people, positions, endorsements, now, scale.bookings);

  // Listed in the order a reader (or a diff) expects: by person, then by time.
  endorsements.sort((a, b) => a.user_id - b.user_id || cmp(a.valid_from, b.valid_from) || cmp(a.type, b.type));
  roles.sort((a, b) => cmp(a.area, b.area) || cmp(a.role, b.role) || a.user_id - b.user_id);
  trainings.sort((a, b) => a.user_id - b.user_id || cmp(a.created_at, b.created_at) || cmp(a.area, b.area));
  bookings.sort((a, b) => cmp(a.time_start, b.time_start) || cmp(a.callsign, b.callsign));

  const users = people.map((p) => p.user);
  return {
    areas: [...AREAS],
    users,
    positions,
    endorsements,
    roles,
    trainings,
    bookings,
    ...generateCommunity(stream(seed, 6), users, roles, trainings, positions, now),
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
