// A small iCalendar (RFC 5545) writer: the few parts of the format the booking feed needs,
// written to the letter, since calendar apps differ in how forgiving they are.
import { flagLabels } from './domain.js';
import type { CalendarBooking } from './calendar.repository.js';
import type { CalendarFeed } from './calendar.service.js';

const CRLF = '\r\n';
/** RFC 5545 §3.1: a line is at most 75 octets, CRLF not counted. */
export const MAX_LINE_OCTETS = 75;

/** Folds a content line at 75 octets (RFC 5545), splitting only between code points so no UTF-8 character is cut. */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line) <= MAX_LINE_OCTETS) return line;
  const out: string[] = [];
  let current = '';
  let octets = 0;
  let limit = MAX_LINE_OCTETS;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
      limit = MAX_LINE_OCTETS - 1; // the leading space
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join(`${CRLF} `);
}

/**
 * A TEXT value (§3.3.11): backslash, semicolon and comma escaped, every line break as `\n`.
 * Other control characters have no place in a TEXT value and are dropped.
 */
export function escapeText(value: string): string {
  return value
    .replace(/[\\;,]/g, (c) => `\\${c}`)
    .replace(/\r\n|\r|\n/g, '\\n')
    .replace(/[\u0000-\u0008\u000a-\u001f\u007f]/g, '');
}

/** A UTC DATE-TIME (§3.3.5, form 2): 20261201T100000Z. */
export function utcDateTime(ms: number): string {
  return new Date(ms)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

export type FeedOptions = Omit<CalendarFeed, 'bookings'>;

/** A booking's UID: stable for its whole life, so an update replaces the event instead of adding one. */
export const bookingUid = (id: number, siteHost: string): string => `booking-${id}@${siteHost}`;

export function summaryOf(b: Pick<CalendarBooking, 'callsign' | 'training' | 'exam' | 'event'>): string {
  return [b.callsign, ...flagLabels(b).map((l) => `(${l})`)].join(' ');
}

function eventLines(b: CalendarBooking, options: FeedOptions): string[] {
  const description = [`Position: ${b.position_name}`, `Frequency: ${b.frequency}`, ...(b.area === null ? [] : [`Area: ${b.area}`])].join(
    '\n',
  );
  return [
    'BEGIN:VEVENT',
    `UID:${bookingUid(b.id, options.siteHost)}`,
    `DTSTAMP:${utcDateTime(b.updated_at)}`,
    `CREATED:${utcDateTime(b.created_at)}`,
    `LAST-MODIFIED:${utcDateTime(b.updated_at)}`,
    `DTSTART:${utcDateTime(b.time_start)}`,
    `DTEND:${utcDateTime(b.time_end)}`,
    `SEQUENCE:${b.revision}`,
    `STATUS:${b.deleted ? 'CANCELLED' : 'CONFIRMED'}`,
    `SUMMARY:${escapeText(summaryOf(b))}`,
    `LOCATION:${escapeText(b.position_name)}`,
    `DESCRIPTION:${escapeText(description)}`,
    // A booking does not make the subscriber busy.
    'TRANSP:TRANSPARENT',
    'END:VEVENT',
  ];
}

/** The feed's bytes: a VCALENDAR of the bookings, CRLF line ends, folded lines. */
export function calendarFeed(bookings: readonly CalendarBooking[], options: FeedOptions): Buffer {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//Sector//Sector ${escapeText(options.version)}//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    `X-WR-CALNAME:${escapeText(`${options.siteName} bookings`)}`,
    'X-WR-TIMEZONE:UTC',
    // How often subscribers should look again (Apple and Outlook read these).
    'REFRESH-INTERVAL;VALUE=DURATION:PT1H',
    'X-PUBLISHED-TTL:PT1H',
    ...bookings.flatMap((b) => eventLines(b, options)),
    'END:VCALENDAR',
  ];
  return Buffer.from(lines.map(foldLine).join(CRLF) + CRLF);
}
