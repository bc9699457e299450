// Examinations planned, then graded (contract §20): who may examine, and how an examination and
// its changes read in words (mails, the timeline). Pure: no I/O.
import { ratingCode, ratingValue } from '../members/domain/ratings.js';

/** At most this many examiners per examination. */
export const MAX_EXAMINERS = 2;

/** "HH:MM", 00:00 to 23:59. */
export const isStart = (text: string): boolean => /^([01]\d|2[0-3]):[0-5]\d$/.test(text);

/** "2026-06-10 at 18:00 UTC", or the date alone when no time is set. */
export const whenText = (date: string, start: string | null): string => (start ? `${date} at ${start} UTC` : date);

/** "A", "A and B". */
export const andList = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;

/**
 * Why each examiner may not examine at a position of `positionRating` in `area`: an active examiner
 * endorsement covering the area whose rating is at or above the position's is needed. `held` lists
 * the rating codes of the active examiner endorsements covering the area, per CID.
 */
export function examinerProblems(
  examiners: readonly number[],
  held: ReadonlyMap<number, readonly string[]>,
  positionRating: number,
  area: string,
  callsign: string,
  nameOf: (cid: number) => string,
): string[] {
  const out: string[] = [];
  for (const cid of examiners) {
    const ratings = (held.get(cid) ?? []).map((r) => ratingValue(r) ?? 0);
    if (ratings.length === 0) out.push(`${nameOf(cid)} holds no active examiner endorsement for ${area}.`);
    else if (Math.max(...ratings) < positionRating)
      out.push(
        `${nameOf(cid)} examines up to ${ratingCode(Math.max(...ratings))} in ${area}; ${callsign} needs ${ratingCode(positionRating)} or above.`,
      );
  }
  return out;
}

/** An examination's facts as the timeline keeps them (names beside CIDs, so it reads without a look-up). */
export interface ExaminationFacts {
  id: number;
  date: string;
  start: string | null;
  position: string;
  examiners: number[];
  examiner_names: string[];
}

const str = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const names = (v: unknown): string[] => (Array.isArray(v) ? v.map(str) : []);

/** A planned or changed examination in words: "on 2026-06-10 at 18:00 UTC at EKCH_TWR with A and B". */
export function examinationText(d: Record<string, unknown>): string {
  const start = str(d.start);
  return `on ${whenText(str(d.date), start === '' ? null : start)} at ${str(d.position)} with ${andList(names(d.examiner_names))}`;
}

/** A timeline entry of an examination in words, or null for any other entry. */
export function examinationTimelineText(action: string, d: Record<string, unknown>): string | null {
  const from = (d.from ?? {}) as Record<string, unknown>;
  switch (action) {
    case 'examination':
      return `Examination at ${str(d.position)} recorded: ${str(d.result)}`;
    case 'examination_planned':
      return `Examination planned ${examinationText(d)}`;
    case 'examination_changed':
      return `Examination of ${str(from.date)} changed: now ${examinationText(d)}`;
    case 'examination_graded':
      return `Examination of ${str(d.date)} at ${str(d.position)} graded: ${str(d.result)}`;
    case 'examination_corrected':
      return `Examination of ${str(d.date)} at ${str(d.position)} corrected${d.result_from ? `: ${str(d.result_from)} to ${str(d.result)}` : ''}`;
    case 'examination_cancelled':
      return `Examination ${examinationText(d)} cancelled`;
    default:
      return null;
  }
}
