// Booking periods: a calendar date (d/m/Y) and two 24-hour times (H:i) become a half-open
// interval [start, end) of UTC epoch milliseconds.

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
  const probe = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC rolls 30/02 over into March; a round trip tells real dates from impossible ones.
  if (probe.getUTCFullYear() !== year || probe.getUTCMonth() !== month - 1 || probe.getUTCDate() !== day) return null;
  return { year, month, day };
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
  if (startMinutes === endMinutes) return null;
  const midnight = Date.UTC(date.year, date.month - 1, date.day);
  const start = midnight + startMinutes * MINUTE;
  const end = midnight + endMinutes * MINUTE + (endMinutes < startMinutes ? DAY : 0);
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

/** Whole minutes since UTC midnight of an instant (seconds are dropped). */
export function minutesOf(ms: number): number {
  return Math.floor((((ms % DAY) + DAY) % DAY) / MINUTE);
}
