// Field formats of the create and update bodies. Every format problem is reported at once;
// the rules that need the database (unknown user or position, overlap) come after.
import type { Tag } from './flags.js';
import { type CalendarDate, parseClockTime, parseDayMonthYear } from './period.js';

import type { FieldErrors } from '../errors.js';
import { MAX_CALLSIGN_LENGTH, MAX_CID, MAX_CID_DIGITS, MIN_CID, SOURCE_PATTERN, SOURCE_RULE } from '../limits.js';

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

const CONTROL_CHARACTER = /[\u0000-\u001f\u007f]/;

export const BOOKING_FIELDS = ['cid', 'date', 'start_at', 'end_at', 'position', 'tag', 'source'] as const;
const REQUIRED_ON_CREATE = ['cid', 'date', 'start_at', 'end_at', 'position'] as const;

export { MAX_CALLSIGN_LENGTH, MAX_CID_DIGITS, SOURCE_PATTERN } from '../limits.js';

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

export type ParsedBody<T> = { ok: true; fields: T } | { ok: false; errors: FieldErrors };

/** A whole number given as a JSON number or as a digit string (forms send every value as text). */
function wholeNumber(v: unknown, maxDigits: number): number | null {
  if (typeof v === 'number') return Number.isSafeInteger(v) && v >= 0 && String(v).length <= maxDigits ? v : null;
  if (typeof v === 'string' && new RegExp(`^\\d{1,${maxDigits}}$`).test(v)) return Number(v);
  return null;
}

export function parseBookingBody(body: unknown, mode: 'create'): ParsedBody<CreateFields>;
export function parseBookingBody(body: unknown, mode: BookingInputMode): ParsedBody<BookingFields>;
export function parseBookingBody(body: unknown, mode: BookingInputMode): ParsedBody<BookingFields | CreateFields> {
  const raw = body === undefined ? {} : body;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { ok: false, errors: { body: [MESSAGES.body] } };
  const input = raw as Record<string, unknown>;
  const errors: FieldErrors = {};
  // Own properties only, defined rather than assigned: a client may send a field named
  // "constructor", "toString" or "__proto__" (which an assignment would take for the prototype).
  const fail = (field: string, message: string) => {
    if (Object.hasOwn(errors, field)) errors[field]!.push(message);
    else Object.defineProperty(errors, field, { value: [message], enumerable: true, writable: true, configurable: true });
  };
  const fields: BookingFields = {};

  for (const key of Object.keys(input)) {
    if (key === 'source' && mode === 'update') fail(key, MESSAGES.sourceFixed);
    else if (!(BOOKING_FIELDS as readonly string[]).includes(key)) fail(key, MESSAGES.notAllowed(key));
  }

  // Text is read without the spaces around it, in every field alike; an empty value (as a form
  // sends for a blank input), or one of spaces only, counts as not given.
  const given = (key: string): unknown => {
    const v = input[key];
    if (typeof v !== 'string') return v;
    const text = v.trim();
    return text === '' ? null : text;
  };

  const cid = given('cid');
  if (cid !== undefined && cid !== null) {
    const n = wholeNumber(cid, MAX_CID_DIGITS);
    if (n === null || n < MIN_CID || n > MAX_CID) fail('cid', MESSAGES.cid);
    else fields.cid = n;
  }

  const date = given('date');
  if (date !== undefined && date !== null) {
    const d = typeof date === 'string' ? parseDayMonthYear(date) : null;
    if (d === null) fail('date', MESSAGES.date);
    else fields.date = d;
  }

  for (const key of ['start_at', 'end_at'] as const) {
    const v = given(key);
    if (v === undefined || v === null) continue;
    const minutes = typeof v === 'string' ? parseClockTime(v) : null;
    if (minutes === null) fail(key, MESSAGES.time(key));
    else fields[key] = minutes;
  }

  const position = given('position');
  if (position !== undefined && position !== null) {
    const callsign = typeof position === 'string' ? position.toUpperCase() : '';
    // No callsign holds control characters; PostgreSQL would refuse a NUL outright.
    if (callsign === '' || callsign.length > MAX_CALLSIGN_LENGTH || CONTROL_CHARACTER.test(callsign)) fail('position', MESSAGES.position);
    else fields.position = callsign;
  }

  const tag = given('tag');
  if (tag === null) fields.tag = null;
  else if (tag !== undefined) {
    const n = wholeNumber(tag, 1);
    if (n !== 1 && n !== 2 && n !== 3) fail('tag', MESSAGES.tag);
    else fields.tag = n;
  }

  if (mode === 'create') {
    const source = given('source');
    if (source === undefined || source === null) fields.source = 'CC';
    else {
      const upper = typeof source === 'string' ? source.toUpperCase() : '';
      if (!SOURCE_PATTERN.test(upper)) fail('source', MESSAGES.source);
      else fields.source = upper;
    }
    for (const key of REQUIRED_ON_CREATE) {
      if (fields[key] === undefined && errors[key] === undefined) fail(key, MESSAGES.required(key));
    }
    fields.tag ??= null;
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, fields };
}
