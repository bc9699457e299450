// How the hub's exam answers are read (contract §22): which flag_exam_type values count for a
// rating, a pass that has expired, the hub's time format, fallback names.
import { describe, expect, it } from 'vitest';
import {
  examFlagsOf,
  flagName,
  hubInstant,
  passedTheory,
  type HubExamResult,
} from '../../../src/features/division-api/questions.domain.js';
import { RATINGS } from '../../../src/features/members/domain/ratings.js';

const NOW = Date.parse('2026-06-01T12:00:00Z');
const result = (flag: number, passed: boolean, expiry: string | null = null): HubExamResult => ({
  examId: 1,
  flagExamType: flag,
  passed,
  expiry,
});

describe("the hub's theory exams", () => {
  it('counts the rating number minus one and its fast track for S2, S3 and C1; nothing for other ratings', () => {
    expect(examFlagsOf(RATINGS.S2)).toEqual([2, 8]);
    expect(examFlagsOf(RATINGS.S3)).toEqual([3, 9]);
    expect(examFlagsOf(RATINGS.C1)).toEqual([4, 10]);
    expect(examFlagsOf(RATINGS.S1)).toBeNull();
    expect(examFlagsOf(RATINGS.C3)).toBeNull();
  });

  it('takes a pass of the exam or its fast track that has not expired, and nothing else', () => {
    expect(passedTheory([], RATINGS.S2, NOW)).toBe(false);
    expect(passedTheory([result(2, false)], RATINGS.S2, NOW)).toBe(false);
    expect(passedTheory([result(3, true)], RATINGS.S2, NOW)).toBe(false);
    expect(passedTheory([result(2, true, '2026-06-01 11:59:59')], RATINGS.S2, NOW)).toBe(false);
    expect(passedTheory([result(2, true, '2026-06-01 12:00:01')], RATINGS.S2, NOW)).toBe(true);
    expect(passedTheory([result(8, true)], RATINGS.S2, NOW)).toBe(true);
    expect(passedTheory([result(2, false), result(10, true, '2027-01-01')], RATINGS.C1, NOW)).toBe(true);
    // A rating without an exam on the hub has nothing to pass.
    expect(passedTheory([], RATINGS.S1, NOW)).toBe(true);
  });

  it("reads the hub's times as UTC, ISO 8601 with its zone, and nothing else as a time", () => {
    expect(hubInstant('2026-06-01 12:00:00')).toBe(NOW);
    expect(hubInstant('2026-06-01T14:00:00+02:00')).toBe(NOW);
    expect(hubInstant('2026-06-01')).toBe(Date.parse('2026-06-01T00:00:00Z'));
    expect(hubInstant('soon')).toBeNull();
    expect(hubInstant('')).toBeNull();
    expect(hubInstant(null)).toBeNull();
  });

  it("names an exam from its type when the hub's list is missing", () => {
    expect(flagName(2, 11)).toBe('S2 theory exam');
    expect(flagName(10, 20)).toBe('C1 theory exam (fast track)');
    expect(flagName(null, 7)).toBe('Exam 7');
  });
});
