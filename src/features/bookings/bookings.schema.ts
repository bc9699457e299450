// Bookings as the API shows them (the models the bookings presenter's output is typed by) and
// the schemas of the bookings routes.
import { type Static, Type } from 'typebox';
import {
  BODY_TYPES,
  BookingIdParams,
  BookingListQuery,
  CreateBookingBody,
  IdempotencyHeaders,
  REPLAYED_HEADER,
  UpdateBookingBody,
} from './booking-input.schema.js';
import { ErrorBody, isoTimestamp, ValidationErrorBody } from '../../core/web/schema-atoms.js';

export { BOOKING_ID_PATH } from './booking-input.schema.js';

const ymdHis = (description: string) =>
  Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$',
    examples: ['2026-02-01 10:00:00'],
    description: `${description} (UTC, Y-m-d H:i:s)`,
  });
const isoMicros = (description: string) => isoTimestamp('2026-01-15T12:00:00.000000Z', description);
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
export type BookingFull = Static<typeof BookingFull>;

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
export type BookingReduced = Static<typeof BookingReduced>;

const AnyForm = Type.Union([BookingFull, BookingReduced], { description: 'Full form with an API key, reduced form without' });

export const Conflict = Type.Object(
  {
    message: Type.String({ examples: ['Booking overlaps with an existing booking'] }),
    conflicts: Type.Optional(Type.Array(Type.Integer(), { description: 'IDs of the live bookings of the same position that overlap' })),
  },
  { description: 'The booking overlaps another one of the same position, or the booking was deleted' },
);

export const COMPAT_NOTE =
  'In the Control Center compatibility profile (API_COMPAT=controlcenter, or a key created with --compat controlcenter)';

const WriteResult = <M extends string>(message: M, description: string) =>
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

export const BookingCreated = WriteResult('Booking created', 'Created');
export type BookingCreated = Static<typeof BookingCreated>;
export const BookingUpdated = WriteResult('Booking updated', 'Updated');
export type BookingUpdated = Static<typeof BookingUpdated>;
export const BookingDeleted = WriteResult('Booking deleted', 'Deleted');
export type BookingDeleted = Static<typeof BookingDeleted>;

/** Control Center's response to a create (the compatibility profile): `success` instead of `message`. */
export const BookingCreatedControlCenter = Type.Object(
  { success: Type.Literal('Booking created'), booking: BookingFull, tag: Type.Optional(Type.Literal('Training')) },
  { additionalProperties: false, description: `${COMPAT_NOTE}: created, responds 200 with "success" instead of "message"` },
);
export type BookingCreatedControlCenter = Static<typeof BookingCreatedControlCenter>;

export const writeErrors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  422: ValidationErrorBody,
  429: ErrorBody,
};

export const listBookings = {
  operationId: 'listBookings',
  tags: ['bookings'],
  summary: 'List bookings',
  description:
    'Live (not deleted) bookings sorted by time_start, then id. Without `limit` every matching booking is returned; ' +
    'with `limit` the list comes in pages and a `Link: <…>; rel="next"` header points to the next page until the last.',
  querystring: BookingListQuery,
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
  operationId: 'getBooking',
  tags: ['bookings'],
  summary: 'Get one booking',
  description: 'With an API key a deleted booking is returned too (deleted: 1); without a key it is not found.',
  params: BookingIdParams,
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
  operationId: 'createBooking',
  tags: ['bookings'],
  summary: 'Create a booking',
  description:
    'Field formats are checked together (422 with every problem); then, in order: an unknown cid or position (422), ' +
    'equal start and end (422 under end_at), a start in the past (422 under start_at), an overlap with a live booking of the ' +
    'same position (409 with the conflicting ids; periods are half-open, so 10:00–12:00 and 12:00–14:00 do not overlap). ' +
    'With an `Idempotency-Key` header a repeat of the request gets the response the first got (`Idempotent-Replayed: true`) and creates nothing.',
  consumes: BODY_TYPES,
  headers: IdempotencyHeaders,
  body: CreateBookingBody,
  response: {
    201: {
      ...BookingCreated,
      headers: { location: Type.String({ description: 'URL of the new booking', examples: ['/api/bookings/42'] }), ...REPLAYED_HEADER },
    },
    200: { ...BookingCreatedControlCenter, headers: REPLAYED_HEADER },
    ...writeErrors,
    409: Conflict,
  },
};

export const updateBooking = {
  operationId: 'updateBooking',
  tags: ['bookings'],
  summary: 'Update a booking',
  description:
    'Partial update; the rules of create apply to the result, except that a start in the past is refused only when the start changes ' +
    '(an ongoing booking can be extended). A deleted booking cannot be updated (409).',
  params: BookingIdParams,
  consumes: BODY_TYPES,
  body: UpdateBookingBody,
  response: { 200: BookingUpdated, ...writeErrors, 404: ErrorBody, 409: Conflict },
};

export const deleteBooking = {
  operationId: 'deleteBooking',
  tags: ['bookings'],
  summary: 'Delete a booking',
  description:
    'Soft delete: the booking leaves the list and frees its slot; with a key it can still be fetched by id. Deleting it again is 409.',
  params: BookingIdParams,
  response: {
    200: BookingDeleted,
    401: ErrorBody,
    403: ErrorBody,
    404: ErrorBody,
    409: Conflict,
    422: ValidationErrorBody,
    429: ErrorBody,
  },
};
