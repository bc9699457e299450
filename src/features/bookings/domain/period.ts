// Booking periods: a calendar date (d/m/Y) and two 24-hour times (H:i) become a half-open
// interval [start, end) of UTC epoch milliseconds.
import { utcFromFields } from '../../../core/domain/time.js';

export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Half-open: start is inside the period, end is not. */
export interface Period {
  start: number;
  end: number;
}

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/** `d/m/Y` with or without leading zeros (1/2/2026, 01/02/2026); null for anything else or a date that does not exist. */
export function parseDayMonthYear(text: string): CalendarDate | null {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (!m) return null;
  const [day, month, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return utcFromFields(year, month, day) === null ? null : { year, month, day };
}

/** `H:i` with hours 0–23 (9:00 and 09:00 alike); minutes since midnight, or null. */
export function parseClockTime(text: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!m) return null;
  const hours = Number(m[1]);
  const minutes = Number(m[2]);
  if (hours > 23 || minutes > 59) return null;
  return hours * 60 + minutes;
}

/**
 * The period booked on `date` from `startMinutes` to `endMinutes`. An end before the start
 * means the booking crosses midnight and ends on the next day; equal times are no period (null).
 */
export function periodOn(date: CalendarDate, startMinutes: number, endMinutes: number): Period | null {
  return periodFrom(midnightOf(date) + startMinutes * MINUTE, endMinutes * MINUTE, 0);
}

/**
 * The period from `start` to the first `endTime` (ms since midnight) `wholeDays` days or more later:
 * with no whole days an earlier end crosses midnight, and an equal one is no period (null).
 */
export function periodFrom(start: number, endTime: number, wholeDays: number): Period | null {
  const startTime = timeOfDay(start);
  if (endTime === startTime && wholeDays === 0) return null;
  const end = start - startTime + wholeDays * DAY + endTime + (endTime < startTime ? DAY : 0);
  return { start, end };
}

/** Half-open intervals overlap when each starts before the other ends: adjacency is not overlap. */
export function overlaps(a: Period, b: Period): boolean {
  return a.start < b.end && b.start < a.end;
}

/** The UTC calendar date an instant falls on. */
export function dateOf(ms: number): CalendarDate {
  const d = new Date(ms);
  return { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() };
}

/** Milliseconds since UTC midnight of an instant. */
export function timeOfDay(ms: number): number {
  return ((ms % DAY) + DAY) % DAY;
}

/** Whole days (24 hours) a period lasts. */
export function wholeDaysOf(period: Period): number {
  return Math.floor((period.end - period.start) / DAY);
}

/** UTC midnight of a (real) calendar date. */
export function midnightOf(date: CalendarDate): number {
  const ms = utcFromFields(date.year, date.month, date.day);
  if (ms === null) throw new RangeError(`no such date: ${date.year}-${date.month}-${date.day}`);
  return ms;
}
