import { Type } from 'typebox';
import { MAX_CALLSIGN_LENGTH, MAX_CID, MAX_CID_DIGITS, MIN_CID } from '../domain/limits.js';
import { MAX_BOOKING_ID, MAX_PAGE_SIZE } from '../domain/bookings/query.js';
import { ErrorBody, ValidationErrorBody } from './common.js';

const ymdHis = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
    examples: ['2026-02-01 10:00:00'],
    description: `${description} (UTC, Y-m-d H:i:s)`,
  });
const isoMicros = (description: string) =>
  Type.String({
    format: 'date-time',
    examples: ['2026-01-15T12:00:00.000000Z'],
    description: `${description} (ISO 8601 UTC with microseconds)`,
  });
const flag = (description: string) => Type.Integer({ enum: [0, 1], description });

const fields = {
  id: Type.Integer({ description: 'Booking ID', examples: [42] }),
  source: Type.String({ description: 'Origin of the booking; CC for bookings made in this service', examples: ['CC'] }),
  network_booking: Type.Union([Type.String(), Type.Null()], {
    description: 'Reference to the booking on an external network; null until synced',
  }),
  callsign: Type.String({ description: 'Position callsign', examples: ['EKCH_TWR'] }),
  position_id: Type.Integer({ description: 'ID of the position' }),
  name: Type.String({ description: "Booker's first and last name", examples: ['Ada Lind'] }),
  time_start: ymdHis('Start'),
  time_end: ymdHis('End, exclusive'),
  user_id: Type.Integer({ description: 'CID of the booker', examples: [1000001] }),
  training: flag('1 when the session is training (tagged, or forced by rating or a missing facility endorsement)'),
  event: flag('1 when the booking is for an event'),
  exam: flag('1 when the session is an exam'),
  deleted: flag('1 when the booking was deleted'),
  created_at: isoMicros('Creation time'),
  updated_at: isoMicros('Last change'),
};

/** The full form, in the documented property order (docs/api.md). */
export const BookingFull = Type.Object(
  {
    id: fields.id,
    source: fields.source,
    network_booking: fields.network_booking,
    callsign: fields.callsign,
    position_id: fields.position_id,
    name: fields.name,
    time_start: fields.time_start,
    time_end: fields.time_end,
    user_id: fields.user_id,
    training: fields.training,
    event: fields.event,
    exam: fields.exam,
    deleted: fields.deleted,
    created_at: fields.created_at,
    updated_at: fields.updated_at,
  },
  { additionalProperties: false, title: 'Booking (full form)', description: 'A booking as seen with an API key' },
);

/** The reduced form: nothing that identifies the booker. */
export const BookingReduced = Type.Object(
  {
    id: fields.id,
    callsign: fields.callsign,
    time_start: fields.time_start,
    time_end: fields.time_end,
    training: fields.training,
    event: fields.event,
    exam: fields.exam,
    created_at: fields.created_at,
    updated_at: fields.updated_at,
  },
  { additionalProperties: false, title: 'Booking (reduced form)', description: 'A booking as seen without an API key' },
);

const AnyForm = Type.Union([BookingFull, BookingReduced], { description: 'Full form with an API key, reduced form without' });

const Conflict = Type.Object(
  {
    message: Type.String({ examples: ['Booking overlaps with an existing booking'] }),
    conflicts: Type.Optional(Type.Array(Type.Integer(), { description: 'IDs of the live bookings of the same position that overlap' })),
  },
  { description: 'The booking overlaps another one of the same position, or the booking was deleted' },
);

const COMPAT_NOTE = 'In the Control Center compatibility profile (API_COMPAT=controlcenter, or a key created with --compat controlcenter)';

const WriteResult = (message: string, description: string) =>
  Type.Object(
    {
      message: Type.Literal(message),
      booking: BookingFull,
      tag: Type.Optional(
        Type.Literal('Training', {
          description:
            "Present only when training was forced: the user's rating is below the position's, or the user lacks an active endorsement for the facility the position requires",
        }),
      ),
    },
    { additionalProperties: false, description },
  );

/**
 * The id segment: digits only, so /api/bookings/create is never taken for an id (a GET there is
 * 405, not a failed id). An id outside 1..MAX_BOOKING_ID names no booking: 404, like any unknown id.
 */
export const BOOKING_ID_PATH = '/api/bookings/:id(^\\d{1,10}$)';
const IdParams = Type.Object({ id: Type.Integer({ description: `Booking ID (1 to ${MAX_BOOKING_ID})` }) });

const TAG_DESCRIPTION =
  '1 training, 2 exam, 3 event; none for a normal session. Training is set anyway when the user is not qualified for the position';

// Body fields accept what JSON clients and HTML forms send: numbers or digit strings, and an
// empty value for "not given". The handler reports every format problem at once, including
// what a pattern cannot see (30/02/2026), so these schemas document and pre-check the same rules.
const nullable = <T extends Parameters<typeof Type.Union>[0]>(types: T, description: string, examples: unknown[]) =>
  Type.Union([...types, Type.Null()], { description, examples });
const body = {
  cid: nullable(
    [Type.Integer({ minimum: MIN_CID, maximum: MAX_CID }), Type.String({ pattern: `^(?!0+$)\\d{1,${MAX_CID_DIGITS}}$|^$` })],
    "The booker's user ID (CID); a digit string is accepted",
    [1000001],
  ),
  date: nullable(
    [Type.String({ pattern: '^(\\d{1,2}/\\d{1,2}/\\d{4})?$' })],
    'Date of the start, d/m/Y (1/2/2026 and 01/02/2026 alike), UTC',
    ['24/12/2026'],
  ),
  start_at: nullable([Type.String({ pattern: '^(([01]?\\d|2[0-3]):[0-5]\\d)?$' })], 'Start, 24-hour H:i (00:00–23:59), UTC', ['09:00']),
  end_at: nullable(
    [Type.String({ pattern: '^(([01]?\\d|2[0-3]):[0-5]\\d)?$' })],
    'End, 24-hour H:i, UTC. An end before the start means the booking ends on the next day; equal start and end are refused',
    ['11:30'],
  ),
  position: nullable([Type.String({ maxLength: MAX_CALLSIGN_LENGTH })], 'Position callsign, case-insensitive', ['EKCH_TWR']),
  tag: nullable([Type.Integer({ enum: [1, 2, 3] }), Type.String({ pattern: '^[123]?$' })], TAG_DESCRIPTION, [1]),
  source: nullable(
    [Type.String({ pattern: '^([A-Za-z0-9_-]{1,16})?$' })],
    'Origin of the booking, 1–16 of A-Z 0-9 _ - (upper-cased); default CC',
    ['CC'],
  ),
};

const CreateBody = Type.Object(body, {
  required: ['cid', 'date', 'start_at', 'end_at', 'position'],
  additionalProperties: false,
  description:
    'JSON or application/x-www-form-urlencoded. Spaces around a value are ignored; an empty value (or one of spaces only) counts as not given',
});
const UpdateBody = Type.Object(
  {
    cid: Type.Optional(body.cid),
    date: Type.Optional(body.date),
    start_at: Type.Optional(body.start_at),
    end_at: Type.Optional(body.end_at),
    position: Type.Optional(body.position),
    tag: Type.Optional(
      nullable(
        [Type.Integer({ enum: [1, 2, 3] }), Type.String({ pattern: '^[123]?$' })],
        `${TAG_DESCRIPTION}. Not given: the chosen tag stays (forced training is decided again for the new booker or position); null or empty: the tag is removed`,
        [1],
      ),
    ),
  },
  {
    additionalProperties: false,
    description:
      'Any subset of the fields, at least one, JSON or application/x-www-form-urlencoded; fields not given (or null/empty) keep their value, ' +
      'and a body that gives none is refused (422). Spaces around a value are ignored. The source cannot be changed',
  },
);

const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded'];

const writeErrors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  422: ValidationErrorBody,
  429: ErrorBody,
};

export const listBookings = {
  tags: ['bookings'],
  summary: 'List bookings',
  description:
    'Live (not deleted) bookings sorted by time_start, then id. Without `limit` every matching booking is returned; ' +
    'with `limit` the list comes in pages and a `Link: <…>; rel="next"` header points to the next page until the last.',
  querystring: Type.Object({
    from: Type.Optional(
      Type.String({
        description:
          'Only bookings that end after this time: an ISO date (2026-02-01, meaning its 00:00 UTC) or date-time (2026-02-01T10:00:00Z; no offset means UTC)',
        examples: ['2026-02-01'],
      }),
    ),
    to: Type.Optional(
      Type.String({
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
    cursor: Type.Optional(Type.String({ maxLength: 200, description: 'Opaque; taken from the Link header of the previous page' })),
  }),
  response: {
    200: Type.Union([Type.Array(AnyForm), Type.Object({ data: Type.Array(AnyForm) }, { additionalProperties: false })], {
      description: `Bookings, full form with an API key and reduced form without: a JSON array; ${COMPAT_NOTE.toLowerCase()}, the same array in {"data": […]}`,
      headers: { link: Type.String({ description: 'With `limit`, when another page follows: `</api/bookings?…&cursor=…>; rel="next"`' }) },
    }),
    401: ErrorBody,
    422: ValidationErrorBody,
    429: ErrorBody,
  },
};

export const getBooking = {
  tags: ['bookings'],
  summary: 'Get one booking',
  description: 'With an API key a deleted booking is returned too (deleted: 1); without a key it is not found.',
  params: IdParams,
  response: {
    200: Type.Union([AnyForm, Type.Object({ booking: AnyForm }, { additionalProperties: false })], {
      description: `The booking; ${COMPAT_NOTE.toLowerCase()}, wrapped as {"booking": {…}}`,
    }),
    401: ErrorBody,
    404: ErrorBody,
    422: ValidationErrorBody,
    429: ErrorBody,
  },
};

export const createBooking = {
  tags: ['bookings'],
  summary: 'Create a booking',
  description:
    'Field formats are checked together (422 with every problem); then, in order: an unknown cid or position (422), ' +
    'equal start and end (422 under end_at), a start in the past (422 under start_at), an overlap with a live booking of the ' +
    'same position (409 with the conflicting ids; periods are half-open, so 10:00–12:00 and 12:00–14:00 do not overlap).',
  consumes: BODY_TYPES,
  body: CreateBody,
  response: {
    201: {
      ...WriteResult('Booking created', 'Created'),
      headers: { location: Type.String({ description: 'URL of the new booking', examples: ['/api/bookings/42'] }) },
    },
    200: Type.Object(
      { success: Type.Literal('Booking created'), booking: BookingFull, tag: Type.Optional(Type.Literal('Training')) },
      { additionalProperties: false, description: `${COMPAT_NOTE}: created, answered 200 with "success" instead of "message"` },
    ),
    ...writeErrors,
    409: Conflict,
  },
};

export const updateBooking = {
  tags: ['bookings'],
  summary: 'Update a booking',
  description:
    'Partial update; the rules of create apply to the result, except that a start in the past is refused only when the start changes ' +
    '(an ongoing booking can be extended). A deleted booking cannot be updated (409).',
  params: IdParams,
  consumes: BODY_TYPES,
  body: UpdateBody,
  response: { 200: WriteResult('Booking updated', 'Updated'), ...writeErrors, 404: ErrorBody, 409: Conflict },
};

export const deleteBooking = {
  tags: ['bookings'],
  summary: 'Delete a booking',
  description:
    'Soft delete: the booking leaves the list and frees its slot; with a key it can still be fetched by id. Deleting it again is 409.',
  params: IdParams,
  response: {
    200: WriteResult('Booking deleted', 'Deleted'),
    401: ErrorBody,
    403: ErrorBody,
    404: ErrorBody,
    409: Conflict,
    422: ValidationErrorBody,
    429: ErrorBody,
  },
};
