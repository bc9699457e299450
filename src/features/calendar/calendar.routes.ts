// GET /calendar/bookings.ics: public, with an ETag (304) and CORS like the other public GETs.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type CalendarFilter, type FilterMode, type FilterQuery, parseCalendarFilter } from './domain.js';
import { ValidationError } from '../../core/domain/errors.js';
import { getCalendarFeed } from './calendar.schema.js';
import { calendarFeed } from './icalendar.view.js';
import type { RouteServices } from '../../app/services.js';

function filterOf(query: FilterQuery, mode: FilterMode): CalendarFilter {
  const parsed = parseCalendarFilter(query, mode);
  if (!parsed.ok) throw new ValidationError(parsed.errors);
  return parsed.filter;
}

/** The feed is bytes the view made; the response schema documents them. */
const sendBytes = (reply: FastifyReply, body: Buffer, contentType: string) => reply.type(contentType).send(body);

const calendarRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const calendar = services.calendar;

  app.get('/calendar/bookings.ics', { schema: getCalendarFeed, config: { auth: 'public' } }, async (request, reply) => {
    const { bookings, ...names } = await calendar.feed(filterOf(request.query, 'feed'));
    const feed = calendarFeed(bookings, names);
    // Calendar apps save the feed under this name when it is opened rather than subscribed to.
    reply.header('content-disposition', 'inline; filename="bookings.ics"');
    return sendBytes(reply, feed, 'text/calendar; charset=utf-8');
  });
};

export default calendarRoutes;
