// Sweatbox sessions (contract §23): a position's callsign, a UTC day and HH:MM start and end (an end
// before the start is on the next day), 15 minutes to 8 hours, notes 0–255 characters.
import type { FieldErrors } from '../../core/domain/errors.js';
import { type Period, parseClockTime, periodOn } from '../bookings/domain/period.js';
import { parseWindowBound } from '../bookings/domain/query.js';
import { utcFromFields } from '../../core/domain/time.js';

export { parseWindowBound };

export const SESSION_MIN_MS = 15 * 60_000;
export const SESSION_MAX_MS = 8 * 3_600_000;
export const NOTES_MAX = 255;
/** Past sessions are kept this long after their end, then removed. */
export const KEEP_PAST_MS = 30 * 86_400_000;

export interface SessionFields {
  position: string;
  date: string;
  start: string;
  end: string;
  notes: string;
}

export interface SessionInput {
  callsign: string;
  period: Period;
  notes: string;
}

/** The session the fields describe, or each field's message. The callsign is checked against the positions by the service. */
export function parseSession(fields: SessionFields): { ok: true; session: SessionInput } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const callsign = fields.position.trim().toUpperCase();
  if (callsign === '') errors.position = ['Choose a position.'];
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(fields.date.trim());
  const midnight = day ? utcFromFields(Number(day[1]), Number(day[2]), Number(day[3])) : null;
  if (midnight === null) errors.date = ['Give the day as YYYY-MM-DD.'];
  const start = parseClockTime(fields.start.trim());
  const end = parseClockTime(fields.end.trim());
  if (start === null) errors.start = ['Give the start as HH:MM (UTC).'];
  if (end === null) errors.end = ['Give the end as HH:MM (UTC).'];
  const notes = fields.notes.trim();
  if (notes.length > NOTES_MAX) errors.notes = [`The notes may be at most ${NOTES_MAX} characters.`];
  if (midnight !== null && start !== null && end !== null) {
    const d = new Date(midnight);
    const period = periodOn({ year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, start, end);
    const length = period === null ? 0 : period.end - period.start;
    if (period === null || length < SESSION_MIN_MS || length > SESSION_MAX_MS)
      errors.end = ['A session lasts from 15 minutes to 8 hours (an end before the start is on the next day).'];
    else if (Object.keys(errors).length === 0) return { ok: true, session: { callsign, period, notes } };
  }
  return { ok: false, errors };
}
