// A member's own calendar feed, GET /calendar/member/<secret>.ics (contract §14): public (the
// secret in its address is what grants it), their bookings only.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { memberCalendar } from './member-calendar.schema.js';
import { calendarFeed } from './icalendar.view.js';
import type { RouteServices } from '../../app/services.js';

const memberCalendarRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  app.get('/calendar/member/:file', { schema: memberCalendar }, async (request, reply) => {
    const { file } = request.params;
    const feed = file.endsWith('.ics') ? await services.memberBookings.memberFeed(file.slice(0, -4)) : null;
    if (feed === null) return reply.code(404).send({ message: 'Calendar not found' });
    const { bookings, ...names } = feed;
    return reply
      .header('cache-control', 'private, no-store')
      .header('content-disposition', 'inline; filename="my-bookings.ics"')
      .type('text/calendar; charset=utf-8')
      .send(calendarFeed(bookings, names));
  });
};

export default memberCalendarRoutes;
