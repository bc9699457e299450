// POST /api/bookings/batch (contract §5, "Batches and retries"): its body, its responses and its schema.
import { type Static, Type } from 'typebox';
import { MAX_BATCH_SIZE } from './domain/index.js';
import { BODY_TYPES, CreateBookingBody, IdempotencyHeaders, REPLAYED_HEADER } from './booking-input.schema.js';
import { BookingFull, COMPAT_NOTE, writeErrors } from './bookings.schema.js';
import { ERROR_MESSAGE } from '../../core/web/schema-atoms.js';

/** One item: a create's body. */
const BatchItem = Type.Object(CreateBookingBody.properties, {
  required: ['cid', 'date', 'start_at', 'end_at', 'position'],
  additionalProperties: false,
  description: 'A booking, as the body of a create',
  [ERROR_MESSAGE]: { type: 'Each booking must be an object with the fields of a create.' },
});

export const BatchBody = Type.Object(
  {
    bookings: Type.Array(BatchItem, {
      minItems: 1,
      maxItems: MAX_BATCH_SIZE,
      description: `1 to ${MAX_BATCH_SIZE} bookings, created in this order`,
      [ERROR_MESSAGE]: {
        type: 'The bookings field must be a list of bookings.',
        minItems: 'The bookings field must list at least one booking.',
        maxItems: `A batch takes at most ${MAX_BATCH_SIZE} bookings.`,
      },
    }),
  },
  {
    required: ['bookings'],
    additionalProperties: false,
    description:
      'JSON, or a form with the items numbered from 0: bookings[0][cid]=1000001&bookings[0][position]=EKCH_TWR&…. ' +
      "Each item's fields are read as a create's",
  },
);
export type BatchBody = Static<typeof BatchBody>;

export const BatchCreated = Type.Object(
  { message: Type.Literal('Bookings created'), bookings: Type.Array(BookingFull, { description: 'The new bookings, in the order given' }) },
  { additionalProperties: false, description: 'Created, every one' },
);
export type BatchCreated = Static<typeof BatchCreated>;

export const BatchCreatedControlCenter = Type.Object(
  { success: Type.Literal('Bookings created'), bookings: Type.Array(BookingFull) },
  { additionalProperties: false, description: `${COMPAT_NOTE}: created, responds 200 with "success" instead of "message"` },
);
export type BatchCreatedControlCenter = Static<typeof BatchCreatedControlCenter>;

const BatchConflict = Type.Object(
  {
    message: Type.String({ examples: ['Booking overlaps with an existing booking'] }),
    conflicts: Type.Optional(
      Type.Array(Type.Integer(), { description: 'IDs of the stored live bookings it overlaps (empty when it overlaps another item)' }),
    ),
    index: Type.Optional(Type.Integer({ minimum: 0, description: 'The refused item, counted from 0' })),
  },
  {
    description:
      'An item overlaps a stored booking of the same position, or an earlier item of the batch (nothing was created); ' +
      'or a request with the same Idempotency-Key is still being processed (Retry-After: 1)',
  },
);

export const createBookingBatch = {
  operationId: 'createBookingBatch',
  tags: ['bookings'],
  summary: 'Create several bookings at once',
  description:
    `1 to ${MAX_BATCH_SIZE} bookings in one transaction: all are created, in the order given, or none. Each item is checked as a ` +
    'create is; every refused item is returned at once in one 422, its fields named by item (`bookings[3].position`). An item ' +
    'that overlaps an earlier item or a stored booking is 409 with its `index`. Each booking is published, pushed and audited ' +
    'as a single create is. With an `Idempotency-Key` header a repeat gets the response the first request got and creates nothing.',
  consumes: BODY_TYPES,
  headers: IdempotencyHeaders,
  body: BatchBody,
  response: {
    201: { ...BatchCreated, headers: REPLAYED_HEADER },
    200: { ...BatchCreatedControlCenter, headers: REPLAYED_HEADER },
    ...writeErrors,
    409: BatchConflict,
  },
};
