// What clients send to the bookings routes: the list's query string, the id in the path, and
// the bodies of create and update.
import { type Static, Type } from 'typebox';
import {
  MAX_CALLSIGN_LENGTH,
  MAX_CID,
  MAX_CID_DIGITS,
  MAX_SOURCE_LENGTH,
  MIN_CID,
  MIN_SOURCE_LENGTH,
  SOURCE_RULE,
} from '../../core/domain/limits.js';
import { MESSAGES } from './domain/input.js';
import { ERROR_MESSAGE } from '../../core/web/schema-atoms.js';
import { MAX_BOOKING_ID, MAX_PAGE_SIZE } from './domain/query.js';

/** The formats of the list's window bounds and cursor, checked by the validator (src/core/web/validation.ts). */
export const WINDOW_BOUND = 'window-bound';
export const LIST_CURSOR = 'list-cursor';

const windowBoundMessage = (edge: 'from' | 'to') =>
  `The ${edge} field must be an ISO 8601 date (2026-02-01) or date-time (2026-02-01T10:00:00Z).`;

export const BookingListQuery = Type.Object({
  from: Type.Optional(
    Type.String({
      format: WINDOW_BOUND,
      [ERROR_MESSAGE]: windowBoundMessage('from'),
      description:
        'Only bookings that end after this time: an ISO date (2026-02-01, meaning its 00:00 UTC) or date-time (2026-02-01T10:00:00Z; no offset means UTC)',
      examples: ['2026-02-01'],
    }),
  ),
  to: Type.Optional(
    Type.String({
      format: WINDOW_BOUND,
      [ERROR_MESSAGE]: windowBoundMessage('to'),
      description:
        'Only bookings that start before this time: an ISO date-time, or an ISO date meaning the end of that day (from=2026-02-01&to=2026-02-01 is that whole day)',
      examples: ['2026-02-07'],
    }),
  ),
  callsign: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: MAX_CALLSIGN_LENGTH,
      // No control characters: no callsign has them, and PostgreSQL refuses a NUL in text.
      pattern: '^[^\\u0000-\\u001f\\u007f]*$',
      description: 'Only this position (case-insensitive)',
      examples: ['EKCH_TWR'],
    }),
  ),
  cid: Type.Optional(
    Type.Integer({
      minimum: MIN_CID,
      maximum: MAX_CID,
      description: "Only this user's bookings. Needs an API key (401 without one): on the public list it would tie bookings to a person",
    }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, description: `Page size (1–${MAX_PAGE_SIZE}); turns on pagination` }),
  ),
  cursor: Type.Optional(
    Type.String({
      maxLength: 200,
      format: LIST_CURSOR,
      [ERROR_MESSAGE]: 'The cursor field is invalid: take it unchanged from the Link header.',
      description: 'Opaque; taken from the Link header of the previous page',
    }),
  ),
});

/**
 * The id segment: digits only, so /api/bookings/create is never taken for an id (a GET there is
 * 405, not a failed id). An id outside 1..MAX_BOOKING_ID names no booking: 404, like any unknown id.
 */
export const BOOKING_ID_PATH = '/api/bookings/:id(^\\d{1,10}$)';
export const BookingIdParams = Type.Object({ id: Type.Integer({ description: `Booking ID (1 to ${MAX_BOOKING_ID})` }) });

const TAG_DESCRIPTION =
  '1 training, 2 exam, 3 event; none for a normal session. Training is set anyway when the user is not qualified for the position';

/** The date field's format: a d/m/Y date that exists (30/02/2026 does not), checked by the validator (src/core/web/validation.ts). */
export const DAY_MONTH_YEAR = 'day-month-year';

// Body fields accept what JSON clients and HTML forms send: numbers or digit strings. Spaces
// around a text value are removed before the schema sees it, and a field left empty (or null)
// is not given (withoutBlanks), so the schema checks the values that count.
const clockTime = (description: string, field: 'start_at' | 'end_at', example: string) =>
  Type.String({ pattern: '^([01]?\\d|2[0-3]):[0-5]\\d$', description, examples: [example], [ERROR_MESSAGE]: MESSAGES.time(field) });
const tagOf = (description: string, nullable: boolean) =>
  Type.Union([Type.Integer({ enum: [1, 2, 3] }), Type.String({ pattern: '^[123]$' }), ...(nullable ? [Type.Null()] : [])], {
    description,
    examples: [1],
    [ERROR_MESSAGE]: MESSAGES.tag,
  });
const body = {
  cid: Type.Union([Type.Integer({ minimum: MIN_CID, maximum: MAX_CID }), Type.String({ pattern: `^(?!0+$)\\d{1,${MAX_CID_DIGITS}}$` })], {
    description: "The booker's user ID (CID); a digit string is accepted",
    examples: [1000001],
    [ERROR_MESSAGE]: MESSAGES.cid,
  }),
  date: Type.String({
    format: DAY_MONTH_YEAR,
    description: 'Date of the start, d/m/Y (1/2/2026 and 01/02/2026 alike), UTC',
    examples: ['24/12/2026'],
    [ERROR_MESSAGE]: MESSAGES.date,
  }),
  start_at: clockTime('Start, 24-hour H:i (00:00–23:59), UTC', 'start_at', '09:00'),
  end_at: clockTime(
    'End, 24-hour H:i, UTC. An end before the start means the booking ends on the next day; equal start and end are refused',
    'end_at',
    '11:30',
  ),
  position: Type.String({
    minLength: 1,
    maxLength: MAX_CALLSIGN_LENGTH,
    // No callsign holds control characters, and PostgreSQL refuses a NUL in text.
    pattern: '^[^\\u0000-\\u001f\\u007f]*$',
    description: 'Position callsign, case-insensitive',
    examples: ['EKCH_TWR'],
    [ERROR_MESSAGE]: MESSAGES.position,
  }),
  tag: tagOf(TAG_DESCRIPTION, false),
  source: Type.String({
    pattern: `^[A-Za-z0-9_-]{${MIN_SOURCE_LENGTH},${MAX_SOURCE_LENGTH}}$`,
    description: `Origin of the booking, ${SOURCE_RULE} (upper-cased); default CC`,
    examples: ['CC'],
    [ERROR_MESSAGE]: MESSAGES.source,
  }),
};

export const CreateBookingBody = Type.Object(body, {
  required: ['cid', 'date', 'start_at', 'end_at', 'position'],
  additionalProperties: false,
  description:
    'JSON or application/x-www-form-urlencoded. Spaces around a value are ignored; an empty value (or one of spaces only, or null) counts as not given',
  [ERROR_MESSAGE]: { type: MESSAGES.body },
});
export type CreateBookingBody = Static<typeof CreateBookingBody>;

export const UpdateBookingBody = Type.Object(
  {
    cid: Type.Optional(body.cid),
    date: Type.Optional(body.date),
    start_at: Type.Optional(body.start_at),
    end_at: Type.Optional(body.end_at),
    position: Type.Optional(body.position),
    tag: Type.Optional(
      tagOf(
        `${TAG_DESCRIPTION}. Not given: the chosen tag stays (forced training is decided again for the new booker or position); null or empty: the tag is removed`,
        true,
      ),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    description:
      'Any subset of the fields, at least one, JSON or application/x-www-form-urlencoded; fields not given (or null/empty) keep their value, ' +
      'and a body that gives none is refused (422). Spaces around a value are ignored. The source cannot be changed',
    [ERROR_MESSAGE]: {
      type: MESSAGES.body,
      minProperties: MESSAGES.nothingToChange,
      additionalProperties: { source: MESSAGES.sourceFixed },
    },
  },
);
export type UpdateBookingBody = Static<typeof UpdateBookingBody>;

export const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

/** The Idempotency-Key request header of the creates (contract §5, "Batches and retries"). */
export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7e]+$',
      description:
        'Makes a retry safe: a repeat with the same key, API key and body within 24 hours gets the response the first request got ' +
        '(with `Idempotent-Replayed: true`) and creates nothing; the same key with another body is 422; a repeat while the first ' +
        'is still being processed is 409 with `Retry-After: 1`. 1 to 255 visible ASCII characters, e.g. a UUID',
      examples: ['roster-2026-03-14-7f3c'],
      [ERROR_MESSAGE]: 'The Idempotency-Key header must be 1 to 255 visible ASCII characters (no spaces).',
    }),
  ),
});

/** The response's header saying it is a stored one, sent again for a repeat. */
export const REPLAYED_HEADER = {
  'idempotent-replayed': Type.Literal('true', {
    description: 'Present when this is the stored response of an earlier request with the same Idempotency-Key',
  }),
};
