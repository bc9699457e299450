// Members' own bookings (contract §14, docs/booking-pages.md): HTML pages and CSRF-checked forms that
// write through the same service as the API.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bookingFieldsOf, type BookingBody, withoutBlanks } from './domain/input.js';
import { type MemberFormValues, parseMemberForm } from './domain/member-form.js';
import { isBookingId } from './domain/index.js';
import { ConflictError, type FieldErrors, ForbiddenError, NotFoundError, ValidationError } from '../../core/domain/errors.js';
import { fieldErrorsFromValidation } from '../../core/web/errors.js';
import { formFailure, formValues, pathFailed } from '../../core/web/forms.js';
import { accountView, csrfField, sendMessage, sendPage } from '../../core/web/pages.js';
import { bookingFormPage, myBookingsPage, valuesOf, whenText } from './views/member-pages.js';
import { CreateBookingBody } from './booking-input.schema.js';
import type { Member, OfferedChoice } from './member-bookings.service.js';
import {
  bookingForm,
  bookingFormPage as bookingFormSchema,
  cancelBookingForm,
  changeBookingForm,
  editBookingPage,
  myBookingsPage as myBookingsSchema,
  renewCalendarForm,
} from './member-pages.schema.js';
import type { RouteServices } from '../../app/services.js';

const EMPTY_FORM: MemberFormValues = { position: '', date: '', start_at: '', end_at: '', tag: '' };

/** The form's fields, held to the API's create body: its schema (and messages), then its fields. */
function checkCreateBody(request: FastifyRequest, raw: Record<string, string>) {
  const body = withoutBlanks(raw, 'create');
  const validate = request.compileValidationSchema(CreateBookingBody, 'body');
  if (validate(body)) return { ok: true as const, fields: bookingFieldsOf(body as BookingBody, 'create') };
  return { ok: false as const, errors: fieldErrorsFromValidation(validate.errors ?? [], 'body') };
}

const memberOf = (request: FastifyRequest): Member => ({ cid: request.member!.cid, name: request.member!.name });

/** What the member sent, as text, to fill the form again. */
function valuesSent(body: unknown): MemberFormValues {
  const sent = formValues(body);
  return {
    position: sent.position ?? '',
    date: sent.date ?? '',
    start_at: sent.start_at ?? '',
    end_at: sent.end_at ?? '',
    tag: sent.tag ?? '',
  };
}

const form = { attachValidation: true } as const;

const NOTICES = {
  booked: 'Booked',
  changed: 'Changed',
  cancelled: 'Cancelled',
} as const;

const memberBookingsRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const members = services.memberBookings;
  const publicUrl = services.config.publicUrl.replace(/\/+$/, '');

  const frame = (request: FastifyRequest) => ({
    siteName: services.config.siteName,
    assets: request.server.memberPages.assets,
    account: accountView(request),
    csrf: csrfField(request),
  });

  const today = () => new Date(services.clock()).toISOString().slice(0, 10);

  /** The form (new or edit), with the member's offer; `status` 200, or 422 with the errors next to their fields. */
  async function sendForm(
    request: FastifyRequest,
    reply: FastifyReply,
    status: number,
    bookingId: number | null,
    values: MemberFormValues,
    errors: FieldErrors,
    offer?: OfferedChoice[],
  ) {
    const positions = offer ?? (await members.offer(memberOf(request))).positions;
    const tags = [...new Set(positions.flatMap((p) => p.tags))].sort();
    const page = bookingFormPage({ ...frame(request), bookingId, positions, tags, values, errors, today: today() });
    return sendPage(reply, status, page);
  }

  const refuse = (request: FastifyRequest, reply: FastifyReply, reason: string) =>
    sendMessage(request, reply, 403, {
      title: 'Not allowed',
      message: reason,
      links: [
        { href: '/bookings/new', text: 'Book a position' },
        { href: '/my/bookings', text: 'My bookings' },
      ],
    });

  const notFound = (request: FastifyRequest, reply: FastifyReply) =>
    sendMessage(request, reply, 404, {
      title: 'No such booking',
      message: 'This booking does not exist, or was cancelled.',
      links: [{ href: '/my/bookings', text: 'My bookings' }],
    });

  /** Saves the form as a new booking (id null) or a change: 303 to "My bookings", the form again (422), or 403. */
  async function save(request: FastifyRequest, reply: FastifyReply, id: number | null) {
    const member = memberOf(request);
    const values = valuesSent(request.body);
    const refused = formFailure(request);
    const parsed = refused
      ? { ok: false as const, errors: refused.errors }
      : parseMemberForm(values, member.cid, (body) => checkCreateBody(request, body));
    const { booker: _booker, positions } = await members.offer(member);
    if (!parsed.ok) return sendForm(request, reply, 422, id, values, parsed.errors, positions);
    try {
      const saved = id === null ? await members.create(member, parsed.fields) : await members.update(member, id, parsed.fields);
      const forced = saved.forcedTraining && parsed.fields.tag !== 1 ? '&forced=1' : '';
      return await reply.redirect(`/my/bookings?done=${id === null ? 'booked' : 'changed'}&id=${saved.booking.id}${forced}`, 303);
    } catch (err) {
      if (err instanceof ValidationError) return await sendForm(request, reply, 422, id, values, err.errors, positions);
      if (err instanceof ForbiddenError) return refuse(request, reply, err.message);
      if (err instanceof NotFoundError) return notFound(request, reply);
      if (err instanceof ConflictError) {
        const ids = Array.isArray(err.details.conflicts) ? (err.details.conflicts as number[]) : [];
        if (ids.length === 0) return notFound(request, reply);
        const hits = await members.conflicts(ids);
        const message = `This time overlaps ${hits.map((b) => `${b.callsign} booked ${whenText(b)}`).join('; ')}.`;
        return await sendForm(request, reply, 422, id, values, { start_at: [message] }, positions);
      }
      throw err;
    }
  }

  app.get('/bookings/new', { schema: bookingFormSchema }, (request, reply) => sendForm(request, reply, 200, null, EMPTY_FORM, {}));

  app.post('/bookings', { schema: bookingForm, ...form }, (request, reply) => save(request, reply, null));

  app.get('/bookings/:id/edit', { schema: editBookingPage, ...form }, async (request, reply) => {
    if (pathFailed(request)) return notFound(request, reply);
    const { id } = request.params;
    try {
      const booking = await members.changeable(memberOf(request), id);
      return await sendForm(request, reply, 200, id, valuesOf(booking, members.tagOf(booking)), {});
    } catch (err) {
      if (err instanceof NotFoundError) return notFound(request, reply);
      if (err instanceof ForbiddenError) return refuse(request, reply, err.message);
      throw err;
    }
  });

  app.post('/bookings/:id', { schema: changeBookingForm, ...form }, async (request, reply) => {
    if (formFailure(request)?.part === 'params') return notFound(request, reply);
    return save(request, reply, request.params.id);
  });

  app.post('/bookings/:id/cancel', { schema: cancelBookingForm, ...form }, async (request, reply) => {
    if (pathFailed(request)) return notFound(request, reply);
    const { id } = request.params;
    try {
      await members.cancel(memberOf(request), id);
      return await reply.redirect(`/my/bookings?done=cancelled&id=${id}`, 303);
    } catch (err) {
      if (err instanceof ForbiddenError) return refuse(request, reply, err.message);
      if (err instanceof NotFoundError || err instanceof ConflictError) return notFound(request, reply);
      throw err;
    }
  });

  app.get('/my/bookings', { schema: myBookingsSchema }, async (request, reply) => {
    const member = memberOf(request);
    const q = request.query;
    const [bookings, secret, notice] = await Promise.all([members.upcoming(member), members.calendarSecret(member), noticeOf(member, q)]);
    const feedUrl = secret === null ? null : `${publicUrl}/calendar/member/${secret}.ics`;
    return sendPage(reply, 200, myBookingsPage({ ...frame(request), bookings, notice, feedUrl }));
  });

  /** The confirmation after a 303: what was done, naming the booking only when it is the member's own. */
  async function noticeOf(member: Member, q: { done: string; id: string; forced: string }): Promise<string | null> {
    if (q.done === 'renewed') return 'Your calendar has a new address; the old one no longer works.';
    const done = Object.hasOwn(NOTICES, q.done) ? NOTICES[q.done as keyof typeof NOTICES] : null;
    if (done === null) return null;
    // The id of a link this site made (/^\d+$/); anything else names no booking.
    const id = /^\d+$/.test(q.id) ? Number(q.id) : 0;
    const booking = isBookingId(id) ? await members.own(member, id) : null;
    if (!booking) return `${done}.`;
    const forced =
      q.forced === '1'
        ? ' As your rating is below the position’s (or it needs an endorsement you do not hold), it is a training booking.'
        : '';
    return `${done}: ${booking.callsign} ${whenText(booking)}.${forced}`;
  }

  app.post('/my/calendar', { schema: renewCalendarForm }, async (request, reply) => {
    await members.renewCalendar(memberOf(request));
    return reply.redirect('/my/bookings?done=renewed#feed-title', 303);
  });
};

export default memberBookingsRoutes;
