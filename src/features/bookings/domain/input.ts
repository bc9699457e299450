// The create and update bodies: what a client reads when a field is wrong (the body schemas in
// src/features/bookings/booking-input.schema.ts carry these messages), and the fields of a body they accepted.
// The rules that span fields or need the database (src/features/bookings/domain/rules.ts) come after.
import type { Tag } from './flags.js';
import { type CalendarDate, parseClockTime, parseDayMonthYear } from './period.js';

import { MAX_CALLSIGN_LENGTH, SOURCE_RULE } from '../../../core/domain/limits.js';

export type BookingInputMode = 'create' | 'update';

/** Parsed fields; undefined means "not given" (an update keeps the stored value). */
export interface BookingFields {
  cid?: number;
  date?: CalendarDate;
  /** Minutes since midnight. */
  start_at?: number;
  end_at?: number;
  /** Upper-cased callsign. */
  position?: string;
  /** null: no tag (on an update, an explicit null or empty value removes the tag). */
  tag?: Tag | null;
  source?: string;
}

export type CreateFields = Required<Omit<BookingFields, 'tag'>> & { tag: Tag | null };

export const BOOKING_FIELDS = ['cid', 'date', 'start_at', 'end_at', 'position', 'tag', 'source'] as const;

export { MAX_CALLSIGN_LENGTH } from '../../../core/domain/limits.js';

export const MESSAGES = {
  required: (field: string) => `The ${field} field is required.`,
  notAllowed: (field: string) => `The ${field} field is not allowed.`,
  body: 'The body must be a JSON object or a form.',
  cid: 'The cid field must be a user ID (a positive whole number).',
  date: 'The date field must be a real date in the format d/m/Y, e.g. 24/12/2026.',
  time: (field: string) => `The ${field} field must be a 24-hour time H:i from 00:00 to 23:59, e.g. 09:30.`,
  position: `The position field must be a position callsign of at most ${MAX_CALLSIGN_LENGTH} characters, e.g. EKCH_TWR.`,
  tag: 'The tag field must be 1 (training), 2 (exam) or 3 (event).',
  source: `The source field must be ${SOURCE_RULE}.`,
  sourceFixed: 'The source field cannot be changed after a booking is created.',
  nothingToChange: 'The body must give at least one field to change: cid, date, start_at, end_at, position or tag.',
} as const;

/**
 * The body with text trimmed and blank or null fields left out, except on an update a null or empty
 * tag (it removes the tag) and any source (refused). Fields are defined, not assigned: a client may
 * send "__proto__".
 */
export function withoutBlanks(body: unknown, mode: BookingInputMode): unknown {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const kept = (key: string) =>
    !(BOOKING_FIELDS as readonly string[]).includes(key) || (mode === 'update' && (key === 'tag' || key === 'source'));
  const out = {};
  for (const [key, raw] of Object.entries(body as Record<string, unknown>)) {
    const value: unknown = typeof raw === 'string' ? raw.trim() || null : raw;
    if (value === null && !kept(key)) continue;
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** A body its schema accepted (after withoutBlanks): every value in its documented form. */
export type BookingBody = Partial<Record<(typeof BOOKING_FIELDS)[number], string | number | null>>;

/** The fields of a body its schema accepted: numbers as numbers, callsign and source upper-cased. */
export function bookingFieldsOf(body: BookingBody, mode: 'create'): CreateFields;
export function bookingFieldsOf(body: BookingBody, mode: BookingInputMode): BookingFields;
export function bookingFieldsOf(body: BookingBody, mode: BookingInputMode): BookingFields {
  const fields: BookingFields = {};
  if (body.cid != null) fields.cid = Number(body.cid);
  if (body.date != null) fields.date = parseDayMonthYear(String(body.date))!;
  if (body.start_at != null) fields.start_at = parseClockTime(String(body.start_at))!;
  if (body.end_at != null) fields.end_at = parseClockTime(String(body.end_at))!;
  if (body.position != null) fields.position = String(body.position).toUpperCase();
  if (body.tag !== undefined) fields.tag = body.tag === null ? null : (Number(body.tag) as Tag);
  if (mode === 'create') {
    fields.tag ??= null;
    fields.source = body.source == null ? 'CC' : String(body.source).toUpperCase();
  }
  return fields;
}
