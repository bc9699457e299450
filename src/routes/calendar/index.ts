// GET /calendar/bookings.ics and GET / (the schedule page): public, cached like the other public
// GETs (bytes kept until bookings change, ETag/304), CORS like them.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type CalendarFilter, type FilterMode, type FilterQuery, parseCalendarFilter } from '../../domain/calendar/filter.js';
import { registerAssets } from '../../http/assets.js';
import { accountView } from '../../http/member-pages.js';
import { ValidationError } from '../../domain/errors.js';
import { getCalendarFeed, getSchedulePage } from '../../schemas/calendar.js';
import type { CachedBody } from '../../services/cached-body.js';
import type { RouteServices } from '../../services/index.js';

/**
 * The page loads its stylesheet and script from this origin and nothing else; no inline script
 * or style runs, and no other site may frame it.
 */
export const SCHEDULE_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

function filterOf(query: FilterQuery, mode: FilterMode): CalendarFilter {
  const parsed = parseCalendarFilter(query, mode);
  if (!parsed.ok) throw new ValidationError(parsed.errors);
  return parsed.filter;
}

const send = (reply: FastifyReply, answer: CachedBody, contentType: string) =>
  reply.header('etag', answer.etag).type(contentType).send(answer.body);

const sendHtml = (reply: FastifyReply, body: Buffer) => reply.type('text/html; charset=utf-8').send(body);

const calendarRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  await registerAssets(app);
  const answers = services.calendar;

  app.get('/calendar/bookings.ics', { schema: getCalendarFeed, config: { auth: 'public' } }, async (request, reply) => {
    const answer = await answers.answer('feed', filterOf(request.query, 'feed'));
    // Calendar apps save the feed under this name when it is opened rather than subscribed to.
    reply.header('content-disposition', 'inline; filename="bookings.ics"');
    return send(reply, answer, 'text/calendar; charset=utf-8');
  });

  app.get('/', { schema: getSchedulePage, config: { auth: 'public', page: true } }, async (request, reply) => {
    reply.header('content-security-policy', SCHEDULE_CSP).header('referrer-policy', 'no-referrer');
    // A signed-in member's page is theirs alone (names of bookers, their sign-out form): never kept.
    if (request.member !== null) {
      const body = await answers.memberPage(filterOf(request.query, 'page'), accountView(request));
      return sendHtml(reply, body);
    }
    const answer = await answers.answer('page', filterOf(request.query, 'page'));
    return send(reply, answer, 'text/html; charset=utf-8');
  });
};

export default calendarRoutes;
