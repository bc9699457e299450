// The training pipeline's rules (contract §18): types, statuses and who may move a training from
// one to another, what a member may apply for, the queue's estimate, continued interest.
import { RATINGS, ratingCode } from '../members/domain/ratings.js';
import { isOpenTraining, trainingStatusDescription } from '../members/domain/training-status.js';

export const TRAINING_TYPES = ['Standard', 'Refresh', 'Transfer', 'Fast-track', 'Familiarisation'] as const;
export type TrainingType = (typeof TRAINING_TYPES)[number];
export const isTrainingType = (text: string): text is TrainingType => (TRAINING_TYPES as readonly string[]).includes(text);

export const STATUS = {
  CLOSED_BY_SYSTEM: -4,
  CLOSED_BY_STUDENT: -3,
  CLOSED_BY_STAFF: -2,
  COMPLETED: -1,
  IN_QUEUE: 0,
  PRE_TRAINING: 1,
  ACTIVE: 2,
  AWAITING_EXAM: 3,
} as const;
export const TRAINING_STATUSES = [-4, -3, -2, -1, 0, 1, 2, 3] as const;

export const EXPERIENCE: Readonly<Record<number, string>> = {
  1: 'New to the network',
  2: 'Experienced on the network',
  3: 'Real-world pilot',
  4: 'Real-world ATC',
  5: 'Holds an ATC rating from another division',
  6: 'Holds an ATC rating from another network',
};

export const MOTIVATION_MIN = 50;
export const MOTIVATION_MAX = 1500;
export const CLOSED_REASON_MAX = 65;
export const REPORT_MAX = 20_000;
/** A report template's limits (contract §20). */
export const TEMPLATE_NAME_MAX = 80;
export const TEMPLATE_CONTENT_MAX = 20_000;
export const EXAMINATION_RESULTS = ['PASSED', 'FAILED', 'INCOMPLETE', 'POSTPONED'] as const;
export type ExaminationResult = (typeof EXAMINATION_RESULTS)[number];

const DAY_MS = 86_400_000;
/** A training in status 0 or 1 asks its student to confirm interest this long after the last confirmation. */
export const INTEREST_AFTER_MS = 30 * DAY_MS;
/** …and is closed by the system when not confirmed within this. */
export const INTEREST_DEADLINE_MS = 14 * DAY_MS;
export const INTEREST_REASON = 'Continued interest was not confirmed';
/** The queue's estimate is made of the waits of trainings that left it within this. */
export const ESTIMATE_WINDOW_MS = 730 * DAY_MS;

/** Who moves a training: staff (Administrator, Moderator, or a key or the CLI), a mentor of their own trainee, the student, Sector itself. */
export type Mover = 'staff' | 'mentor' | 'student' | 'system';

const named = (status: number) => `${trainingStatusDescription(status)} (${status})`;

/** Why `by` may not move a training from `from` to `to` (a 409 naming both), or null. Staying is no move. */
export function transitionProblem(from: number, to: number, by: Mover): string | null {
  if (from === to) return null;
  const refused = `A training cannot move from ${named(from)} to ${named(to)}`;
  if (!isOpenTraining(from)) return `${refused}: a closed training cannot be reopened.`;
  if (to === STATUS.CLOSED_BY_SYSTEM && by !== 'system') return `${refused}: only Sector closes a training by itself.`;
  if (to === STATUS.CLOSED_BY_STUDENT && by !== 'student') return `${refused}: only the student closes their own request.`;
  if (by === 'student' && to !== STATUS.CLOSED_BY_STUDENT) return `${refused}: a student may only close their own request.`;
  if (by === 'system' && to !== STATUS.CLOSED_BY_SYSTEM) return `${refused}: Sector only closes trainings.`;
  if (by === 'mentor' && !(from >= 1 && to >= 1)) return `${refused}: a mentor moves their own trainees between statuses 1 and 3.`;
  return null;
}

/** The rating a member may apply to train for: the next one above theirs, up to C1 (null: none). */
export function nextRating(rating: number): number | null {
  if (rating < RATINGS.OBS || rating >= RATINGS.C1) return null;
  return rating + 1;
}

/** The estimate of a wait in the queue, from past waits: the upper half of them, low to high, once there are at least four. */
export function queueEstimate(waits: readonly number[]): { low: number; high: number } | null {
  if (waits.length < 4) return null;
  const sorted = [...waits].sort((a, b) => a - b);
  const upper = sorted.slice(Math.floor(sorted.length / 2));
  return { low: upper[0]!, high: upper.at(-1)! };
}

/** 1st, 2nd, 3rd, 4th, 11th, 21st… */
export function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

/** A wait in words: days under two months, else months. */
export function waitInWords(ms: number): string {
  const days = Math.round(ms / DAY_MS);
  if (days < 60) return `${days} day${days === 1 ? '' : 's'}`;
  return `${Math.round(days / 30.44)} months`;
}

/** When a training's student is next asked to confirm interest: 30 days after the last confirmation (or creation). */
export const interestDueAt = (t: { created_at: number; interest_confirmed_at: number | null }): number =>
  (t.interest_confirmed_at ?? t.created_at) + INTEREST_AFTER_MS;

/** The time it has waited in the queue so far, pauses left out. */
export function queueWait(t: { created_at: number; paused_ms: number; paused_at: number | null }, now: number): number {
  return Math.max(0, now - t.created_at - t.paused_ms - (t.paused_at === null ? 0 : now - t.paused_at));
}

/** What a member may apply to train for in one area: the next rating, and facility endorsements. */
export interface ApplyOption {
  areaId: number;
  area: string;
  /** The next rating's code, or null. */
  rating: string | null;
  facilities: string[];
}

/**
 * Per area (contract §18): the next rating above the member's up to C1, and the facility
 * endorsements the area's positions require at or below the member's rating that they do not hold.
 */
export function applyOptions(
  rating: number,
  areas: ReadonlyArray<{ id: number; name: string }>,
  positions: ReadonlyArray<{ area_id: number | null; rating: number; required_facility: string | null }>,
  held: readonly string[],
): ApplyOption[] {
  const next = nextRating(rating);
  return areas.map((a) => ({
    areaId: a.id,
    area: a.name,
    rating: next === null ? null : ratingCode(next),
    facilities: [
      ...new Set(
        positions.flatMap((p) =>
          p.area_id === a.id && p.required_facility && p.rating <= rating && !held.includes(p.required_facility)
            ? [p.required_facility]
            : [],
        ),
      ),
    ].sort(),
  }));
}
