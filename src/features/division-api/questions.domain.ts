// What Sector asks the division's hub live (contract §22): read-only questions a person waits for,
// answered within 5 s or not at all. A driver (vateud-questions.ts) asks; the rules below read the
// answers: which theory exam a rating needs, and whether a member passed it.
import { ratingCode } from '../members/domain/ratings.js';

/** One theory exam the hub knows. */
export interface HubExam {
  id: number;
  name: string;
  flagExamType: number;
}

/** One exam result of a member; `expiry` as the hub wrote it (null: none). */
export interface HubExamResult {
  examId: number;
  flagExamType: number;
  passed: boolean;
  expiry: string | null;
}

/** One exam assigned to a member, and when, if the hub says. */
export interface HubAssignment {
  examId: number;
  at: string | null;
}

/** An answer, or one line saying why there is none (naming the hub's host). */
export type HubAnswer<T> = { ok: true; value: T } | { ok: false; error: string };

/** The read-only part of a hub's driver. */
export interface DivisionQuestions {
  /** The hub's host, for messages. */
  readonly host: string;
  exams(): Promise<HubAnswer<HubExam[]>>;
  memberExams(cid: number): Promise<HubAnswer<{ results: HubExamResult[]; assignments: HubAssignment[] }>>;
}

/** What the person page shows: names, not numbers, times as epoch ms; or why the hub could not be asked. */
export type MemberHubExams =
  | {
      ok: true;
      results: Array<{ exam: string; passed: boolean; expiry: number | null; expired: boolean }>;
      assignments: Array<{ exam: string; at: number | null }>;
    }
  | { ok: false; host: string; error: string };

/** Ratings whose theory exam the hub keeps: S2, S3, C1 (rating value 3–5). */
const EXAM_RATINGS = new Set([3, 4, 5]);
/** The fast-track exams of S2, S3, C1 are flag_exam_type 8, 9, 10: the plain one's plus 6. */
const FAST_TRACK = 6;

/** The flag_exam_type values that count for a rating (the rating number minus one, and its fast track), or null: no exam. */
export function examFlagsOf(rating: number): number[] | null {
  if (!EXAM_RATINGS.has(rating)) return null;
  return [rating - 1, rating - 1 + FAST_TRACK];
}

/** "S2 theory exam" for a rating value. */
export const examNameOf = (rating: number): string => `${ratingCode(rating)} theory exam`;

/** The hub's time ("YYYY-MM-DD HH:MM:SS", UTC, or ISO 8601) as epoch ms; null when there is none or it is not a time. */
export function hubInstant(text: string | null): number | null {
  if (text === null || text.trim() === '') return null;
  const t = text.trim().replace(' ', 'T');
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(t) || t.length <= 10 ? t : `${t}Z`);
  return Number.isNaN(ms) ? null : ms;
}

/** Expired: it has an end, and that end has passed. A result without one does not expire. */
export const hasExpired = (r: Pick<HubExamResult, 'expiry'>, now: number): boolean => {
  const end = hubInstant(r.expiry);
  return end !== null && end <= now;
};

/** Whether the results hold a pass, not expired, of the theory exam of `rating` (or its fast track). */
export function passedTheory(results: readonly HubExamResult[], rating: number, now: number): boolean {
  const flags = examFlagsOf(rating);
  if (flags === null) return true;
  return results.some((r) => r.passed && flags.includes(r.flagExamType) && !hasExpired(r, now));
}

/** A fallback exam name from its type, when the hub's list of exams could not be read. */
export function flagName(flag: number | null, id: number): string {
  if (flag !== null && flag >= 2 && flag <= 4) return examNameOf(flag + 1);
  if (flag !== null && flag >= 8 && flag <= 10) return `${examNameOf(flag - FAST_TRACK + 1)} (fast track)`;
  return `Exam ${id}`;
}
