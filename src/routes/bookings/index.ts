import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Static } from 'typebox';
import { keyActor, unauthorized } from '../../plugins/api-keys.js';
import {
  bookingFieldsOf,
  type BookingInputMode,
  type BookingListFilter,
  decodeCursor,
  encodeCursor,
  parseWindowBound,
  withoutBlanks,
} from '../../domain/bookings/index.js';
import { ValidationError } from '../../domain/errors.js';
import {
  bookingBody,
  bookingCreatedBody,
  bookingCreatedControlCenterBody,
  bookingDeletedBody,
  bookingUpdatedBody,
  type BookingForm,
} from '../../presenters/bookings.js';
import { wantsControlCenter } from '../../http/variant.js';
import type { RouteServices } from '../../services/index.js';
import type { BookingListQuery } from '../../schemas/booking-input.js';
import { BOOKING_ID_PATH, createBooking, deleteBooking, getBooking, listBookings, updateBooking } from '../../schemas/bookings.js';

const formOf = (request: FastifyRequest): BookingForm => (request.apiKey ? 'full' : 'reduced');

/**
 * The cid filter needs a key, whatever its value: on the public list it would tie bookings to a
 * person, which the reduced form exists to prevent. Checked before the query is validated, so
 * a caller without a key learns that first.
 */
function cidNeedsKey(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction): void {
  if (request.apiKey === null && Object.hasOwn(request.query as object, 'cid')) {
    return done(unauthorized('The cid filter needs an API key: send Authorization: Bearer <API_KEY>'));
  }
  done();
}

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

const bookingsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/api/bookings', { schema: listBookings, config: { auth: 'optional' }, preValidation: cidNeedsKey }, async (request, reply) => {
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
    const saved = await services.bookings.save(null, bookingFieldsOf(request.body, 'create'), keyActor(request));
    reply.header('location', `/api/bookings/${saved.booking.id}`);
    if (wantsControlCenter(request, services.config.apiCompat)) {
      return reply.code(200).send(bookingCreatedControlCenterBody(saved.booking, saved.forcedTraining));
    }
    return reply.code(201).send(bookingCreatedBody(saved.booking, saved.forcedTraining));
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
