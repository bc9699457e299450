// Upcoming bookings over the next two weeks: evening-heavy, on 15-minute boundaries, never overlapping
// on one position, some across midnight, some tagged training, exam or event.
import { RATINGS } from '../members/domain/ratings.js';
import { ymdHis } from '../../core/domain/time.js';
import { MAJOR_AIRPORTS, type AreaName } from './catalog.js';
import type { Person } from './people.js';
import { weighted, type Rng } from './random.js';
import { DAY, HOUR, MINUTE } from './time.js';
import type { DemoBooking, DemoEndorsement, DemoPosition } from './types.js';

const SLOT = 15 * MINUTE;
const WINDOW_DAYS = 14;
const ATTEMPTS = 30;

type Kind = 'normal' | 'training' | 'exam' | 'event';
const kind = weighted<Kind>([
  ['normal', 77],
  ['training', 12],
  ['exam', 3],
  ['event', 8],
]);
const TAG: Record<Kind, DemoBooking['tag']> = { normal: null, training: 1, exam: 2, event: 3 };
// Hours (UTC) people book: busiest in the European evening.
const startHour = weighted(
  [1, 0.5, 0.3, 0.3, 0.5, 1, 2, 3, 3, 3, 3, 3, 3, 4, 5, 7, 9, 10, 10, 9, 7, 4, 2.5, 1.5].map((w, h) => [h, w] as const),
);
const startMinute = weighted([
  [0, 6],
  [15, 1],
  [30, 4],
  [45, 1],
] as const);
const DURATIONS: Record<Kind, (rng: Rng) => number> = {
  normal: weighted([
    [45, 1],
    [60, 4],
    [90, 5],
    [120, 8],
    [150, 4],
    [180, 5],
    [240, 2],
  ] as const),
  training: weighted([
    [90, 3],
    [120, 4],
    [150, 2],
    [180, 2],
  ] as const),
  exam: weighted([
    [90, 2],
    [120, 3],
    [150, 1],
  ] as const),
  event: weighted([
    [180, 3],
    [210, 1],
    [240, 2],
  ] as const),
};
const POSITION_WEIGHT: Record<string, number> = { DEL: 1, GND: 1.5, TWR: 3, APP: 3, DEP: 1.5, CTR: 2.5 };

interface Slot {
  start: number;
  end: number;
}

export function generateBookings(
  rng: Rng,
  people: Person[],
  positions: readonly DemoPosition[],
  endorsements: DemoEndorsement[],
  now: number,
  count: number,
): DemoBooking[] {
  if (people.length === 0 || positions.length === 0) return [];
  const firstSlot = Math.floor(now / SLOT) * SLOT + SLOT;
  const today = Math.floor(now / DAY) * DAY;
  // Two weeks hold the default and the benchmark easily; a much larger request widens the window.
  const days = Math.max(WINDOW_DAYS, Math.ceil((count * 3 * HOUR) / (positions.length * 12 * HOUR)));
  const windowEnd = today + days * DAY;
  const eventDays = [Math.min(days - 1, 5), Math.min(days - 1, 12)];

  const positionPick = weighted(
    positions.map((p, i) => {
      const suffix = p.callsign.slice(p.callsign.lastIndexOf('_') + 1);
      const major = p.callsign.slice(0, 4) in MAJOR_AIRPORTS ? 1.6 : 1;
      return [i, (POSITION_WEIGHT[suffix] ?? 1) * major] as const;
    }),
  );

  const nowIso = new Date(now).toISOString();
  const facilityHolders = new Set(
    endorsements
      .filter((e) => e.type === 'facility' && !e.revoked && e.valid_from <= nowIso && (e.valid_to === null || e.valid_to > nowIso))
      .map((e) => `${e.user_id}|${e.rating}`),
  );
  // Who may book a position outright, and who books it with a mentor (training/exam); built lazily.
  const qualified = new Map<string, Person[]>();
  const learners = new Map<string, Person[]>();
  const bookersFor = (p: DemoPosition): { ok: Person[]; learning: Person[] } => {
    let ok = qualified.get(p.callsign);
    let learning = learners.get(p.callsign);
    if (!ok || !learning) {
      const value = RATINGS[p.rating];
      const area = p.area as AreaName;
      const local = people.filter((u) => u.area === area || u.active.includes(area));
      const holds = (u: Person): boolean => p.required_facility === null || facilityHolders.has(`${u.id}|${p.required_facility}`);
      ok = local.filter((u) => u.active.includes(area) && u.value >= value && holds(u));
      learning = local.filter((u) => u.value === value - 1 || (u.value >= value && !holds(u)));
      if (learning.length === 0) learning = people.filter((u) => u.value < value);
      if (learning.length === 0) learning = people;
      qualified.set(p.callsign, ok);
      learners.set(p.callsign, learning);
    }
    return { ok, learning };
  };

  const taken: Slot[][] = positions.map(() => []);
  const free = (i: number, start: number, end: number): boolean => taken[i]!.every((s) => end <= s.start || start >= s.end);

  const place = (k: Kind, i: number): Slot | null => {
    let duration = DURATIONS[k](rng) * MINUTE;
    let start: number;
    if (k === 'event') {
      start = today + rng.pick(eventDays) * DAY + rng.int(32, 37) * 30 * MINUTE;
    } else if (k === 'normal' && rng.chance(1 / 15)) {
      // A late shift that runs past midnight.
      start = today + rng.int(0, days - 1) * DAY + rng.int(88, 94) * SLOT;
      duration = Math.max(duration, 150 * MINUTE);
    } else {
      start = today + rng.int(0, days - 1) * DAY + startHour(rng) * HOUR + startMinute(rng) * MINUTE;
    }
    return start >= firstSlot && free(i, start, start + duration) ? { start, end: start + duration } : null;
  };

  // When random placement keeps colliding (a crowded schedule), take the first free slot anywhere.
  const firstFree = (offset: number): { i: number; slot: Slot } | null => {
    const duration = 2 * HOUR;
    for (let n = 0; n < positions.length; n++) {
      const i = (offset + n) % positions.length;
      for (let start = firstSlot; start < windowEnd; start += SLOT) {
        if (free(i, start, start + duration)) return { i, slot: { start, end: start + duration } };
      }
    }
    return null;
  };

  const bookings: DemoBooking[] = [];
  for (let b = 0; b < count; b++) {
    let k = kind(rng);
    let found: { i: number; slot: Slot } | null = null;
    for (let attempt = 0; attempt < ATTEMPTS && !found; attempt++) {
      const i = positionPick(rng);
      const slot = place(k, i);
      if (slot) found = { i, slot };
    }
    if (!found) {
      k = 'normal';
      found = firstFree(rng.int(0, positions.length - 1));
      if (!found) break;
    }
    const position = positions[found.i]!;
    const { ok, learning } = bookersFor(position);
    // Without a qualified controller for the position, the booking becomes a training session.
    if ((k === 'normal' || k === 'event') && ok.length === 0) k = 'training';
    const person = rng.pick(k === 'training' || k === 'exam' ? learning : ok);
    taken[found.i]!.push(found.slot);
    bookings.push({
      user_id: person.id,
      callsign: position.callsign,
      time_start: ymdHis(found.slot.start),
      time_end: ymdHis(found.slot.end),
      tag: TAG[k],
      source: rng.chance(0.9) ? 'CC' : 'DISCORD',
    });
  }
  return bookings;
}
