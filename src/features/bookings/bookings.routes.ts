import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { keyActor } from '../api-keys/api-keys.plugin.js';
import {
  BOOKING_FIELDS,
  bookingFieldsOf,
  MAX_BATCH_SIZE,
  type BookingInputMode,
  type BookingListFilter,
  decodeCursor,
  encodeCursor,
  parseWindowBound,
  withoutBlanks,
} from './domain/index.js';
import { ValidationError } from '../../core/domain/errors.js';
import {
  batchCreatedBody,
  batchCreatedControlCenterBody,
  bookingBody,
  bookingCreatedBody,
  bookingCreatedControlCenterBody,
  bookingDeletedBody,
  bookingUpdatedBody,
  type BookingForm,
} from './bookings.view.js';
import { wantsControlCenter } from '../../core/web/variant.js';
import type { RouteServices } from '../../app/services.js';
import { type IdempotencyScope, type JsonResponse, type Outcome, requestHash } from './idempotency.service.js';
import type { SavedBooking } from './bookings.service.js';
import { createBookingBatch } from './booking-batch.schema.js';
import type { BookingListQuery } from './booking-input.schema.js';
import { BOOKING_ID_PATH, createBooking, deleteBooking, getBooking, listBookings, updateBooking } from './bookings.schema.js';

/** A batch's form: up to MAX_BATCH_SIZE items of a create's fields. */
const BATCH_FORM = { count: MAX_BATCH_SIZE, fields: BOOKING_FIELDS.length };

const formOf = (request: FastifyRequest): BookingForm => (request.apiKey ? 'full' : 'reduced');

type ListQuery = Static<typeof BookingListQuery>;

/** The list filter from a query its schema accepted, or a 422 when the window ends before it begins. */
function listFilter(q: ListQuery): BookingListFilter {
  const filter: BookingListFilter = {};
  if (q.from !== undefined) filter.from = parseWindowBound(q.from, 'from')!;
  if (q.to !== undefined) filter.to = parseWindowBound(q.to, 'to')!;
  if (filter.from !== undefined && filter.to !== undefined && filter.to <= filter.from) {
    throw new ValidationError({ to: ['The to field must be after from.'] });
  }
  if (q.cursor !== undefined) filter.after = decodeCursor(q.cursor)!;
  if (q.callsign !== undefined) filter.callsign = q.callsign.toUpperCase();
  if (q.cid !== undefined) filter.cid = q.cid;
  if (q.limit !== undefined) filter.limit = q.limit;
  return filter;
}

/** The Link target of the page after `cursor`: the same query with the new cursor. */
function nextPageUrl(q: ListQuery, cursor: string): string {
  const params = new URLSearchParams();
  for (const key of ['from', 'to', 'callsign', 'cid', 'limit'] as const) {
    if (q[key] !== undefined) params.set(key, String(q[key]));
  }
  params.set('cursor', cursor);
  return `/api/bookings?${params.toString()}`;
}

/** Before the body schema checks it: spaces around values and blank fields removed (withoutBlanks). */
const blanksRemoved =
  (mode: BookingInputMode) =>
  (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void => {
    request.body = withoutBlanks(request.body, mode);
    done();
  };

/** A batch's items, each as a create's body before its schema checks it. */
function itemsWithoutBlanks(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  const body: unknown = request.body;
  if (typeof body === 'object' && body !== null && 'bookings' in body && Array.isArray(body.bookings)) {
    body.bookings = body.bookings.map((item) => withoutBlanks(item, 'create'));
  }
  done();
}

/** The request's Idempotency-Key (its header schema checked it), with what a repeat must match; null without one. */
function idempotencyOf(request: FastifyRequest, route: string, canonical: unknown): IdempotencyScope | null {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return null;
  return { apiKeyId: request.apiKey!.id, key, requestHash: requestHash(route, canonical) };
}

/** Sends a response made now, or a stored one as it was first sent. */
function send(reply: FastifyReply, outcome: Outcome): FastifyReply {
  if (!outcome.replayed) return reply.code(outcome.status).send(outcome.body);
  return reply.code(outcome.status).header('idempotent-replayed', 'true').type('application/json; charset=utf-8').send(outcome.json);
}

/** The id of the booking a create responded with, for its Location. */
function createdId(outcome: Outcome): number | undefined {
  const body = (outcome.replayed ? JSON.parse(outcome.json) : outcome.body) as { booking?: { id?: number } };
  return body.booking?.id;
}

const bookingsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  // The cid filter needs a key, whatever its value: on the public list it would tie bookings to a person,
  // which the reduced form exists to prevent. The scope's guard checks it before the query is validated.
  const listConfig = { auth: 'optional' as const, keyedParameters: ['cid'] };
  app.get('/api/bookings', { schema: listBookings, config: listConfig }, async (request, reply) => {
    const page = await services.bookings.list(formOf(request), listFilter(request.query));
    if (page.next !== null) reply.header('link', `<${nextPageUrl(request.query, encodeCursor(page.next))}>; rel="next"`);
    return wantsControlCenter(request, services.config.apiCompat) ? { data: page.bookings } : page.bookings;
  });

  app.get(BOOKING_ID_PATH, { schema: getBooking, config: { auth: 'optional' } }, async (request) => {
    const form = formOf(request);
    const body = bookingBody(await services.bookings.find(request.params.id, form), form);
    return wantsControlCenter(request, services.config.apiCompat) ? { booking: body } : body;
  });

  const create = { schema: createBooking, config: { auth: 'edit' as const }, preValidation: blanksRemoved('create') };
  app.post('/api/bookings/create', create, async (request, reply) => {
    const fields = bookingFieldsOf(request.body, 'create');
    const compat = wantsControlCenter(request, services.config.apiCompat);
    const respond = (saved: SavedBooking[]): JsonResponse => {
      const { booking, forcedTraining } = saved[0]!;
      return compat
        ? { status: 200, body: bookingCreatedControlCenterBody(booking, forcedTraining) }
        : { status: 201, body: bookingCreatedBody(booking, forcedTraining) };
    };
    const outcome = await services.idempotency.run(idempotencyOf(request, 'create', fields), respond, async (seal) => [
      await services.bookings.save(null, fields, keyActor(request), seal ? { seal } : {}),
    ]);
    const id = createdId(outcome);
    if (id !== undefined) reply.header('location', `/api/bookings/${id}`);
    return send(reply, outcome);
  });

  const batch = { schema: createBookingBatch, config: { auth: 'edit' as const, formItems: BATCH_FORM }, preValidation: itemsWithoutBlanks };
  app.post('/api/bookings/batch', batch, async (request, reply) => {
    const items = request.body.bookings.map((item) => bookingFieldsOf(item, 'create'));
    const compat = wantsControlCenter(request, services.config.apiCompat);
    const respond = (saved: SavedBooking[]): JsonResponse => {
      const bookings = saved.map((s) => s.booking);
      return compat ? { status: 200, body: batchCreatedControlCenterBody(bookings) } : { status: 201, body: batchCreatedBody(bookings) };
    };
    const outcome = await services.idempotency.run(idempotencyOf(request, 'batch', items), respond, (seal) =>
      services.bookings.createBatch(items, keyActor(request), seal),
    );
    return send(reply, outcome);
  });

  const update = { schema: updateBooking, config: { auth: 'edit' as const }, preValidation: blanksRemoved('update') };
  app.patch(BOOKING_ID_PATH, update, async (request) => {
    const saved = await services.bookings.save(request.params.id, bookingFieldsOf(request.body, 'update'), keyActor(request));
    return bookingUpdatedBody(saved.booking, saved.forcedTraining);
  });

  app.delete(BOOKING_ID_PATH, { schema: deleteBooking, config: { auth: 'edit' } }, async (request) =>
    bookingDeletedBody(await services.bookings.remove(request.params.id, keyActor(request))),
  );
};

export default bookingsRoutes;
