// The training pipeline's pure rules (contract §18): who may move a training where, what a member may
// apply for, the queue's estimate and wait, continued interest.
import { describe, expect, it } from 'vitest';
import {
  applyOptions,
  INTEREST_AFTER_MS,
  interestDueAt,
  nextRating,
  ordinal,
  queueEstimate,
  queueWait,
  STATUS,
  TRAINING_STATUSES,
  transitionProblem,
  waitInWords,
  type Mover,
} from '../../../src/features/trainings/domain.js';
import { RATINGS } from '../../../src/features/members/domain/ratings.js';

const DAY = 86_400_000;
const OPEN = [STATUS.IN_QUEUE, STATUS.PRE_TRAINING, STATUS.ACTIVE, STATUS.AWAITING_EXAM];
const CLOSED = [STATUS.CLOSED_BY_SYSTEM, STATUS.CLOSED_BY_STUDENT, STATUS.CLOSED_BY_STAFF, STATUS.COMPLETED];

describe('transitionProblem', () => {
  it('lets anyone stay where the training is', () => {
    for (const s of TRAINING_STATUSES)
      for (const by of ['staff', 'mentor', 'student', 'system'] as Mover[]) expect(transitionProblem(s, s, by)).toBeNull();
  });

  it('never reopens a closed training, whoever asks, naming both statuses', () => {
    for (const from of CLOSED)
      for (const to of OPEN)
        expect(transitionProblem(from, to, 'staff')).toMatch(
          /^A training cannot move from .+ \(-\d\) to .+ \(\d\): a closed training cannot be reopened\.$/,
        );
  });

  it('lets staff move an open training to any open status, complete it or close it, but not as the student or Sector', () => {
    for (const from of OPEN) {
      for (const to of [...OPEN, STATUS.COMPLETED, STATUS.CLOSED_BY_STAFF]) expect(transitionProblem(from, to, 'staff')).toBeNull();
      expect(transitionProblem(from, STATUS.CLOSED_BY_STUDENT, 'staff')).toMatch(/only the student closes their own request\.$/);
      expect(transitionProblem(from, STATUS.CLOSED_BY_SYSTEM, 'staff')).toMatch(/only Sector closes a training by itself\.$/);
    }
  });

  it('lets a mentor move their trainee between statuses 1 and 3 only', () => {
    const mentor = (from: number, to: number) => transitionProblem(from, to, 'mentor');
    expect(mentor(STATUS.PRE_TRAINING, STATUS.ACTIVE)).toBeNull();
    expect(mentor(STATUS.ACTIVE, STATUS.AWAITING_EXAM)).toBeNull();
    expect(mentor(STATUS.AWAITING_EXAM, STATUS.PRE_TRAINING)).toBeNull();
    for (const [from, to] of [
      [STATUS.IN_QUEUE, STATUS.PRE_TRAINING],
      [STATUS.ACTIVE, STATUS.IN_QUEUE],
      [STATUS.ACTIVE, STATUS.COMPLETED],
      [STATUS.AWAITING_EXAM, STATUS.CLOSED_BY_STAFF],
    ])
      expect(mentor(from!, to!)).toMatch(/a mentor moves their own trainees between statuses 1 and 3\.$/);
  });

  it('lets the student only close their own request, and Sector only close by itself', () => {
    for (const from of OPEN) {
      expect(transitionProblem(from, STATUS.CLOSED_BY_STUDENT, 'student')).toBeNull();
      expect(transitionProblem(from, STATUS.CLOSED_BY_SYSTEM, 'system')).toBeNull();
    }
    expect(transitionProblem(STATUS.IN_QUEUE, STATUS.ACTIVE, 'student')).toMatch(/a student may only close their own request\.$/);
    expect(transitionProblem(STATUS.IN_QUEUE, STATUS.CLOSED_BY_STAFF, 'system')).toMatch(/Sector only closes trainings\.$/);
  });
});

describe('the queue', () => {
  it('estimates from at least four past waits: the upper half, low to high, whatever their order', () => {
    expect(queueEstimate([])).toBeNull();
    expect(queueEstimate([5, 1, 3])).toBeNull();
    expect(queueEstimate([40, 10, 30, 20])).toEqual({ low: 30, high: 40 });
    expect(queueEstimate([9, 1, 7, 3, 5])).toEqual({ low: 5, high: 9 });
  });

  it('counts a wait without its pauses, a pause under way included, and never below zero', () => {
    const created = 1_000 * DAY;
    expect(queueWait({ created_at: created, paused_ms: 0, paused_at: null }, created + 10 * DAY)).toBe(10 * DAY);
    expect(queueWait({ created_at: created, paused_ms: 3 * DAY, paused_at: null }, created + 10 * DAY)).toBe(7 * DAY);
    expect(queueWait({ created_at: created, paused_ms: 3 * DAY, paused_at: created + 8 * DAY }, created + 10 * DAY)).toBe(5 * DAY);
    expect(queueWait({ created_at: created, paused_ms: 0, paused_at: null }, created - DAY)).toBe(0);
  });

  it('says a wait in days under two months, else in months; places as ordinals', () => {
    expect([waitInWords(DAY), waitInWords(59 * DAY), waitInWords(61 * DAY), waitInWords(365 * DAY)]).toEqual([
      '1 day',
      '59 days',
      '2 months',
      '12 months',
    ]);
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '22nd',
      '101st',
      '111th',
    ]);
  });
});

describe('applying and continued interest', () => {
  it('offers the next rating up to C1, none above or below the ladder', () => {
    expect(nextRating(RATINGS.OBS)).toBe(RATINGS.OBS + 1);
    expect(nextRating(RATINGS.C1 - 1)).toBe(RATINGS.C1);
    expect(nextRating(RATINGS.C1)).toBeNull();
    expect(nextRating(RATINGS.OBS - 1)).toBeNull();
  });

  it('offers per area the facilities its positions require at or below the rating that the member does not hold', () => {
    const areas = [
      { id: 1, name: 'Denmark' },
      { id: 2, name: 'Sweden' },
    ];
    const positions = [
      { area_id: 1, rating: RATINGS.C1, required_facility: 'EKCH APP' },
      { area_id: 1, rating: RATINGS.C1, required_facility: 'EKCH APP' },
      { area_id: 1, rating: RATINGS.C1, required_facility: 'EKDK CTR' },
      { area_id: 1, rating: RATINGS.C1 + 1, required_facility: 'EKCH HIGH' },
      { area_id: 2, rating: RATINGS.C1, required_facility: 'ESSA APP' },
      { area_id: null, rating: RATINGS.C1, required_facility: 'NOWHERE' },
    ];
    expect(applyOptions(RATINGS.C1, areas, positions, ['ESSA APP'])).toEqual([
      { areaId: 1, area: 'Denmark', rating: null, facilities: ['EKCH APP', 'EKDK CTR'] },
      { areaId: 2, area: 'Sweden', rating: null, facilities: [] },
    ]);
    expect(applyOptions(RATINGS.C1 - 1, areas, positions, [])[0]).toEqual({ areaId: 1, area: 'Denmark', rating: 'C1', facilities: [] });
  });

  it('asks for interest 30 days after the last confirmation, or after creation', () => {
    expect(interestDueAt({ created_at: 5 * DAY, interest_confirmed_at: null })).toBe(5 * DAY + INTEREST_AFTER_MS);
    expect(interestDueAt({ created_at: 5 * DAY, interest_confirmed_at: 20 * DAY })).toBe(20 * DAY + INTEREST_AFTER_MS);
  });
});
