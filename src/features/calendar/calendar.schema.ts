// Schemas of the calendar feed and the schedule page: their query strings, and their responses
// for the OpenAPI document (the bodies are iCalendar and HTML, sent as bytes).
import { type Static, Type } from 'typebox';
import { MAX_AREA_LENGTH, MAX_FILTER_VALUES } from './domain.js';
import { ErrorBody, ValidationErrorBody } from '../../core/web/schema-atoms.js';

const repeatable = (description: string, example: string, maxLength: number) =>
  Type.Optional(
    Type.Union([Type.String({ maxLength }), Type.Array(Type.String({ maxLength }), { maxItems: MAX_FILTER_VALUES })], {
      description: `${description} Repeatable (at most ${MAX_FILTER_VALUES}); an empty value is no filter.`,
      examples: [example],
    }),
  );

export const CalendarQuery = Type.Object({
  callsign: repeatable(
    'Only these positions: a callsign matches exactly, case-insensitive; `EKCH_*` matches every callsign starting EKCH_. ' +
      'Letters A-Z, digits and _ only (at most 20), with one * at the end for a prefix; anything else is 422.',
    'EKCH_*',
    64,
  ),
  area: repeatable("Only positions of these areas (the area's name, case-insensitive).", 'Denmark', MAX_AREA_LENGTH + 1),
});
export type CalendarQuery = Static<typeof CalendarQuery>;

export const SchedulePageQuery = Type.Object({
  callsign: repeatable(
    'Only callsigns starting with this (EKCH matches EKCH_TWR and EKCH_APP), case-insensitive. Letters A-Z, digits and _ only; anything else is 422.',
    'EKCH',
    64,
  ),
  area: repeatable("Only positions of this area (the area's name, case-insensitive).", 'Denmark', MAX_AREA_LENGTH + 1),
});
export type SchedulePageQuery = Static<typeof SchedulePageQuery>;

const text = (contentType: string, description: string) => ({
  description,
  content: { [contentType]: { schema: Type.String() } },
});

const NOT_MODIFIED = { description: 'Not modified: the If-None-Match ETag is current', type: 'null' } as const;

export const getCalendarFeed = {
  operationId: 'getCalendarFeed',
  tags: ['calendar'],
  summary: 'Bookings as an iCalendar feed',
  description:
    'The public bookings as iCalendar (RFC 5545) events, for subscribing in a calendar app: from 7 days ago to 90 days ahead, ' +
    'with bookings deleted in the last 7 days as `STATUS:CANCELLED`. Each event: `UID` booking-<id>@<SITE_HOST> (stable), ' +
    '`SEQUENCE` (grows with every change), `SUMMARY` the callsign and (Training), (Exam) or (Event), `LOCATION` the position. ' +
    'No personal data. Sent with an ETag; If-None-Match gets a 304.',
  querystring: CalendarQuery,
  response: {
    200: text('text/calendar', 'An iCalendar file (text/calendar; charset=utf-8)'),
    304: NOT_MODIFIED,
    401: ErrorBody,
    422: ValidationErrorBody,
    429: ErrorBody,
  },
};

export const getSchedulePage = {
  operationId: 'getSchedulePage',
  tags: ['calendar'],
  summary: 'Schedule page',
  description:
    'An HTML page of the upcoming bookings (now and the next 30 days), grouped by UTC day, titled SITE_NAME, with filters by area ' +
    'and callsign prefix and a link to the matching iCalendar feed. Sent with an ETag; If-None-Match gets a 304.',
  querystring: SchedulePageQuery,
  response: {
    200: text('text/html', 'The page (text/html; charset=utf-8)'),
    304: NOT_MODIFIED,
    400: text('text/html', 'A query the page cannot read (malformed, or too many parameters): a page saying so'),
    422: text('text/html', 'A filter the page cannot use: the page again, with the message next to its field'),
  },
};
