// Controllers of the demo division: mostly members of the home subdivision, some visitors.
import { RATINGS, type RatingCode } from '../members/domain/ratings.js';
import { AREAS, type AreaName } from './catalog.js';
import { emailLocalPart, INTERNATIONAL_NAMES, LOCAL_NAMES, type NamePool } from './names.js';
import { weighted, type Rng } from './random.js';
import type { DemoUser } from './types.js';

export const DIVISION = 'EUD';
export const SUBDIVISION = 'SCA';

export interface Person {
  id: number;
  rating: RatingCode;
  value: number;
  /** Home area of a member; the area a visitor mainly controls in. */
  area: AreaName;
  member: boolean;
  /** Areas the person is ATC-active in. */
  active: AreaName[];
  user: DemoUser;
}

const FIRST_CID = 1_000_000;
const LAST_CID = 1_999_999;
const VISITOR_SHARE = 0.12;

const homeArea = weighted<AreaName>([
  ['Sweden', 35],
  ['Denmark', 22],
  ['Norway', 22],
  ['Finland', 15],
  ['Iceland', 6],
]);
// Shaped like a real division: a queue of observers, many S1-S3, fewer centre and instructor ratings.
const memberRating = weighted<RatingCode>([
  ['OBS', 14],
  ['S1', 22],
  ['S2', 20],
  ['S3', 17],
  ['C1', 15],
  ['C3', 4],
  ['I1', 5],
  ['I3', 2],
  ['SUP', 1],
]);
// Visiting controllers arrive already rated elsewhere.
const visitorRating = weighted<RatingCode>([
  ['S2', 10],
  ['S3', 28],
  ['C1', 40],
  ['C3', 10],
  ['I1', 9],
  ['I3', 3],
]);
const visitorOrigin = weighted<readonly [region: string, division: string, subdivision: string | null]>([
  [['EMEA', 'EUD', 'GER'], 6],
  [['EMEA', 'EUD', 'NL'], 3],
  [['EMEA', 'EUD', 'POL'], 3],
  [['EMEA', 'EUD', 'FRA'], 2],
  [['EMEA', 'EUD', 'ITA'], 2],
  [['EMEA', 'EUD', 'BAL'], 2],
  [['EMEA', 'GBR', null], 4],
  [['EMEA', 'MENA', null], 1],
  [['AMAS', 'USA', null], 2],
  [['AMAS', 'CAN', null], 1],
  [['APAC', 'PAC', null], 1],
]);

function distinctCids(rng: Rng, count: number): number[] {
  const ids = new Set<number>();
  while (ids.size < count) ids.add(rng.int(FIRST_CID, LAST_CID));
  return [...ids].sort((a, b) => a - b);
}

function namePool(rng: Rng, member: boolean, area: AreaName): NamePool {
  if (member) return rng.chance(0.85) ? LOCAL_NAMES[area] : rng.chance(0.5) ? INTERNATIONAL_NAMES : LOCAL_NAMES[rng.pick(AREAS)];
  return rng.chance(0.8) ? INTERNATIONAL_NAMES : LOCAL_NAMES[rng.pick(AREAS)];
}

export function generatePeople(rng: Rng, count: number): Person[] {
  const usedEmails = new Map<string, number>();
  return distinctCids(rng, count).map((id) => {
    const member = !rng.chance(VISITOR_SHARE);
    const area = homeArea(rng);
    const rating = member ? memberRating(rng) : visitorRating(rng);
    const value = RATINGS[rating];
    const names = namePool(rng, member, area);
    const first = rng.pick(names.first);
    const last = rng.pick(names.last);

    const local = emailLocalPart(first, last);
    const seen = usedEmails.get(local) ?? 0;
    usedEmails.set(local, seen + 1);
    const email = `${seen === 0 ? local : `${local}${seen + 1}`}@${rng.chance(0.75) ? 'example.org' : 'example.com'}`;

    // Activity is kept per area: home (or visited) area for every controller, a second area for a few.
    const activity: Record<string, boolean> = {};
    const active: AreaName[] = [];
    if (value >= RATINGS.S1) {
      activity[area] = rng.chance(member ? 0.85 : 0.75);
      if (rng.chance(0.08)) {
        const other = rng.pick(AREAS);
        if (other !== area) activity[other] = true;
      }
      for (const a of AREAS) if (activity[a]) active.push(a);
    } else {
      activity[area] = false;
    }

    const [region, division, subdivision] = member ? (['EMEA', DIVISION, SUBDIVISION] as const) : visitorOrigin(rng);
    return {
      id,
      rating,
      value,
      area,
      member,
      active,
      user: { id, email, first_name: first, last_name: last, rating, region, division, subdivision, atc_active_areas: activity },
    };
  });
}
