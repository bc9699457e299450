// GET /calendar/bookings.ics and GET / (the schedule page): public, with an ETag (304) and CORS
// like the other public GETs.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  type CalendarFilter,
  type FilterMode,
  type FilterQuery,
  MAX_AREA_LENGTH,
  MAX_FILTER_VALUES,
  type ParsedFilter,
  parseCalendarFilter,
} from '../../domain/calendar/filter.js';
import { MAX_CALLSIGN_LENGTH } from '../../domain/limits.js';
import { registerAssets } from '../../http/assets.js';
import { accountView } from '../../http/member-pages.js';
import { unknownParameters } from '../../http/parameters.js';
import { ValidationError } from '../../domain/errors.js';
import { getCalendarFeed, getSchedulePage } from '../../schemas/calendar.js';
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

/** The first value of a query parameter, as text (for the form shown again). */
const firstValue = (v: unknown): string => {
  const first: unknown = Array.isArray(v) ? (v as unknown[])[0] : v;
  return typeof first === 'string' ? first : '';
};

/** The schema refuses only what is far too long or too many: said in the page's terms, per field. */
function schemaErrors(error: Error & { validation?: Array<{ instancePath?: string }> }): Record<string, string[]> {
  const fields = new Set((error.validation ?? []).map((v) => (v.instancePath ?? '').split('/')[1] ?? ''));
  const errors: Record<string, string[]> = {};
  if (fields.has('area'))
    errors.area = [`The area field must be an area's name of at most ${MAX_AREA_LENGTH} characters, at most ${MAX_FILTER_VALUES} of them.`];
  if (fields.has('callsign') || Object.keys(errors).length === 0) {
    errors.callsign = [
      `The callsign field must be the start of a callsign, at most ${MAX_CALLSIGN_LENGTH} characters, at most ${MAX_FILTER_VALUES} of them.`,
    ];
  }
  return errors;
}

/** What the schedule page's form sends; anything else is answered with the form and a message. */
const PAGE_PARAMETERS: readonly string[] = ['callsign', 'area'];

const sendRefusal = (reply: FastifyReply, page: Buffer) =>
  reply.code(422).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(page);

/** The feed and the page are bytes the presenters made; the response schemas document them. */
const sendBytes = (reply: FastifyReply, body: Buffer, contentType: string) => reply.type(contentType).send(body);

const calendarRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  await registerAssets(app);
  const answers = services.calendar;

  app.get('/calendar/bookings.ics', { schema: getCalendarFeed, config: { auth: 'public' } }, async (request, reply) => {
    const feed = await answers.feed(filterOf(request.query, 'feed'));
    // Calendar apps save the feed under this name when it is opened rather than subscribed to.
    reply.header('content-disposition', 'inline; filename="bookings.ics"');
    return sendBytes(reply, feed, 'text/calendar; charset=utf-8');
  });

  // A person typed the filter: a value the page cannot use is answered with the page (422), the
  // form again with the message next to its field, not with the API's JSON.
  app.get('/', { schema: getSchedulePage, config: { auth: 'public', page: true }, attachValidation: true }, async (request, reply) => {
    reply.header('content-security-policy', SCHEDULE_CSP).header('referrer-policy', 'no-referrer');
    const query: FilterQuery = request.query;
    const unknown = Object.keys(query).filter((name) => !PAGE_PARAMETERS.includes(name));
    const parsed: ParsedFilter =
      unknown.length > 0
        ? { ok: false, errors: unknownParameters(unknown, PAGE_PARAMETERS).errors }
        : request.validationError
          ? { ok: false, errors: schemaErrors(request.validationError) }
          : parseCalendarFilter(query, 'page');
    if (!parsed.ok) {
      const page = await answers.refusedFilter(
        {
          area: firstValue(query.area),
          callsign: firstValue(query.callsign),
          errors: parsed.errors,
        },
        accountView(request),
      );
      return sendRefusal(reply, page);
    }
    const page = await answers.page(parsed.filter, request.member !== null ? accountView(request) : undefined);
    return sendBytes(reply, page, 'text/html; charset=utf-8');
  });
};

export default calendarRoutes;
