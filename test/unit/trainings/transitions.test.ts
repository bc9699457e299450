// The whole transition table of a training (contract §18): every status to every status, by each
// mover, with the reason a refused move gives. Each mover's allowed moves are listed here as the
// contract states them, so the table is checked against them rather than against the code's order.
import { describe, expect, it } from 'vitest';
import { STATUS, TRAINING_STATUSES, transitionProblem, type Mover } from '../../../src/features/trainings/domain.js';

const OPEN: readonly number[] = [STATUS.IN_QUEUE, STATUS.PRE_TRAINING, STATUS.ACTIVE, STATUS.AWAITING_EXAM];
const IN_TRAINING: readonly number[] = [STATUS.PRE_TRAINING, STATUS.ACTIVE, STATUS.AWAITING_EXAM];
const NAMES: Record<number, string> = {
  [-4]: 'Closed by system (-4)',
  [-3]: 'Closed by student (-3)',
  [-2]: 'Closed by staff (-2)',
  [-1]: 'Completed (-1)',
  0: 'In queue (0)',
  1: 'Pre-training (1)',
  2: 'Active training (2)',
  3: 'Awaiting exam (3)',
};

/** The moves each mover may make (besides staying), from an open training. */
const ALLOWED: Record<Mover, (from: number, to: number) => boolean> = {
  staff: (from, to) => OPEN.includes(from) && to !== STATUS.CLOSED_BY_SYSTEM && to !== STATUS.CLOSED_BY_STUDENT,
  mentor: (from, to) => IN_TRAINING.includes(from) && IN_TRAINING.includes(to),
  student: (from, to) => OPEN.includes(from) && to === STATUS.CLOSED_BY_STUDENT,
  system: (from, to) => OPEN.includes(from) && to === STATUS.CLOSED_BY_SYSTEM,
};

const refusal = (from: number, to: number, why: string) => `A training cannot move from ${NAMES[from]} to ${NAMES[to]}: ${why}`;

describe('the transition table', () => {
  for (const by of ['staff', 'mentor', 'student', 'system'] as const) {
    it(`allows ${by} exactly the moves the contract gives them, and names both statuses in every refusal`, () => {
      let allowed = 0;
      for (const from of TRAINING_STATUSES) {
        for (const to of TRAINING_STATUSES) {
          const problem = transitionProblem(from, to, by);
          const label = `${by}: ${from} → ${to}`;
          if (from === to || ALLOWED[by](from, to)) {
            expect(problem, label).toBeNull();
            if (from !== to) allowed++;
          } else {
            expect(problem, label).toMatch(
              new RegExp(`^A training cannot move from ${literally(NAMES[from]!)} to ${literally(NAMES[to]!)}: .+\\.$`),
            );
          }
        }
      }
      // staff: 4 open × 5 other targets (the open ones, completed, closed by staff); a mentor: 3 × 2;
      // the student and Sector: one target from each of 4 open statuses.
      expect(allowed).toBe({ staff: 20, mentor: 6, student: 4, system: 4 }[by]);
    });
  }

  it('refuses to reopen a closed training before anything else, even to the mover’s own target', () => {
    expect(transitionProblem(STATUS.COMPLETED, STATUS.CLOSED_BY_SYSTEM, 'system')).toBe(
      refusal(STATUS.COMPLETED, STATUS.CLOSED_BY_SYSTEM, 'a closed training cannot be reopened.'),
    );
    expect(transitionProblem(STATUS.CLOSED_BY_STAFF, STATUS.CLOSED_BY_STUDENT, 'student')).toBe(
      refusal(STATUS.CLOSED_BY_STAFF, STATUS.CLOSED_BY_STUDENT, 'a closed training cannot be reopened.'),
    );
    expect(transitionProblem(STATUS.CLOSED_BY_SYSTEM, STATUS.ACTIVE, 'mentor')).toBe(
      refusal(STATUS.CLOSED_BY_SYSTEM, STATUS.ACTIVE, 'a closed training cannot be reopened.'),
    );
  });

  it('gives each refusal of an open training its own reason, in full', () => {
    const cases: Array<[number, number, Mover, string]> = [
      [STATUS.ACTIVE, STATUS.CLOSED_BY_SYSTEM, 'staff', 'only Sector closes a training by itself.'],
      [STATUS.ACTIVE, STATUS.CLOSED_BY_SYSTEM, 'mentor', 'only Sector closes a training by itself.'],
      [STATUS.IN_QUEUE, STATUS.CLOSED_BY_SYSTEM, 'student', 'only Sector closes a training by itself.'],
      [STATUS.IN_QUEUE, STATUS.CLOSED_BY_STUDENT, 'staff', 'only the student closes their own request.'],
      [STATUS.PRE_TRAINING, STATUS.CLOSED_BY_STUDENT, 'system', 'only the student closes their own request.'],
      [STATUS.ACTIVE, STATUS.CLOSED_BY_STUDENT, 'mentor', 'only the student closes their own request.'],
      [STATUS.IN_QUEUE, STATUS.PRE_TRAINING, 'student', 'a student may only close their own request.'],
      [STATUS.ACTIVE, STATUS.CLOSED_BY_STAFF, 'student', 'a student may only close their own request.'],
      [STATUS.AWAITING_EXAM, STATUS.COMPLETED, 'student', 'a student may only close their own request.'],
      [STATUS.IN_QUEUE, STATUS.CLOSED_BY_STAFF, 'system', 'Sector only closes trainings.'],
      [STATUS.ACTIVE, STATUS.COMPLETED, 'system', 'Sector only closes trainings.'],
      [STATUS.PRE_TRAINING, STATUS.IN_QUEUE, 'system', 'Sector only closes trainings.'],
      [STATUS.IN_QUEUE, STATUS.PRE_TRAINING, 'mentor', 'a mentor moves their own trainees between statuses 1 and 3.'],
      [STATUS.PRE_TRAINING, STATUS.IN_QUEUE, 'mentor', 'a mentor moves their own trainees between statuses 1 and 3.'],
      [STATUS.AWAITING_EXAM, STATUS.COMPLETED, 'mentor', 'a mentor moves their own trainees between statuses 1 and 3.'],
      [STATUS.ACTIVE, STATUS.CLOSED_BY_STAFF, 'mentor', 'a mentor moves their own trainees between statuses 1 and 3.'],
    ];
    for (const [from, to, by, why] of cases) expect(transitionProblem(from, to, by), `${by}: ${from} → ${to}`).toBe(refusal(from, to, why));
  });

  it('names a status it does not know by its number', () => {
    expect(transitionProblem(STATUS.ACTIVE, 7, 'student')).toBe(
      'A training cannot move from Active training (2) to Status 7 (7): a student may only close their own request.',
    );
  });
});

function literally(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
