// GET /, the public schedule page (contract §12): the next 30 days' bookings, filtered by area and
// callsign prefix; signed in, with who booked each position. A page of the page scope, with CORS
// like the public GETs.
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type FilterQuery, MAX_AREA_LENGTH, MAX_FILTER_VALUES, type ParsedFilter, parseCalendarFilter } from './domain.js';
import { MAX_CALLSIGN_LENGTH } from '../../core/domain/limits.js';
import { accountView, withLook } from '../../core/web/pages.js';
import { unknownParameters } from '../../core/web/parameters.js';
import { getSchedulePage } from './calendar.schema.js';
import { refusedFilterPage, schedulePage } from './schedule-page.view.js';
import type { RouteServices } from '../../app/services.js';

/**
 * The page loads its stylesheet and script from this origin and nothing else; no inline script
 * or style runs, and no other site may frame it.
 */
export const SCHEDULE_CSP =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

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

/** What the schedule page's form sends; anything else gets the form and a message. */
const PAGE_PARAMETERS: readonly string[] = ['callsign', 'area'];

const sendRefusal = (reply: FastifyReply, page: Buffer) =>
  reply.code(422).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(withLook(reply.request, page));

/** The page is bytes the view made; the response schema documents them. */
const sendHtml = (reply: FastifyReply, body: Buffer) => reply.type('text/html; charset=utf-8').send(withLook(reply.request, body));

const scheduleRoutes: FastifyPluginAsyncTypebox<{ services: RouteServices }> = async (app, { services }) => {
  const calendar = services.calendar;

  // A person typed the filter: a value the page cannot use gets the page (422), the
  // form again with the message next to its field, not with the API's JSON.
  app.get('/', { schema: getSchedulePage, config: { auth: 'public' }, attachValidation: true }, async (request, reply) => {
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
      const frame = await calendar.frame(accountView(request));
      const refused = { area: firstValue(query.area), callsign: firstValue(query.callsign), errors: parsed.errors };
      return sendRefusal(reply, refusedFilterPage(frame, refused));
    }
    const page = await calendar.page(parsed.filter, request.member !== null ? accountView(request) : undefined);
    return sendHtml(reply, schedulePage(page));
  });
};

export default scheduleRoutes;
