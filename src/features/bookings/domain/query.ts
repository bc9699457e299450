// List filters and the pagination cursor of GET /api/bookings.
import { utcFromFields } from '../../../core/domain/time.js';

const DAY = 86_400_000;

/** A window bound as epoch ms or null: an ISO date or date-time (no offset means UTC); a bare date as `to` includes that day. */
export function parseWindowBound(text: string, edge: 'from' | 'to'): number | null {
  // A '+' offset arrives as a space when the client did not percent-encode it.
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+ -]\d{2}:?\d{2})?)?$/i.exec(text.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (m[4] === undefined) {
    const midnight = utcFromFields(year, month, day);
    return midnight === null ? null : midnight + (edge === 'to' ? DAY : 0);
  }
  const local = utcFromFields(year, month, day, Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
  if (local === null) return null;
  const millis = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3));
  let offset = 0;
  const zone = m[8];
  if (zone !== undefined && zone.toUpperCase() !== 'Z') {
    const om = /^([+ -])(\d{2}):?(\d{2})$/.exec(zone)!;
    const [oh, omin] = [Number(om[2]), Number(om[3])];
    if (oh > 23 || omin > 59) return null;
    offset = (om[1] === '-' ? -1 : 1) * (oh * 60 + omin) * 60_000;
  }
  return local + millis - offset;
}

/** Position in the list order (time_start, id) after which the next page starts. */
export interface ListPosition {
  time_start: number;
  id: number;
}

/** What GET /api/bookings selects: the list's filters and one page of it. */
export interface BookingListFilter {
  /** Only bookings ending after this instant. */
  from?: number;
  /** Only bookings starting before this instant. */
  to?: number;
  /** Upper-case callsign. */
  callsign?: string;
  cid?: number;
  /** Only bookings after this position in the list order. */
  after?: ListPosition;
  limit?: number;
}

export function encodeCursor(p: ListPosition): string {
  return Buffer.from(JSON.stringify([p.time_start, p.id])).toString('base64url');
}

export function decodeCursor(cursor: string): ListPosition | null {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return null;
  try {
    const v: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(v) && v.length === 2 && Number.isSafeInteger(v[0]) && Number.isInteger(v[1]) && v[1] >= 0 && v[1] <= MAX_BOOKING_ID) {
      return { time_start: v[0] as number, id: v[1] as number };
    }
  } catch {
    // not JSON: an invalid cursor like any other
  }
  return null;
}

export const MAX_PAGE_SIZE = 1000;

/** Booking ids are 32-bit integers on PostgreSQL: a larger one names no booking and must not reach a query. */
export const MAX_BOOKING_ID = 2_147_483_647;

/** Whether an id could name a booking at all (ids outside the column's range name none). */
export const isBookingId = (id: number): boolean => Number.isInteger(id) && id >= 1 && id <= MAX_BOOKING_ID;
