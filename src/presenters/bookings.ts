import { isoMicros, ymdHis } from '../domain/time.js';
import type { BookingView } from '../repositories/bookings.js';

/** The full form (with an API key), in the documented property order (docs/api.md). */
export interface BookingFullJson {
  id: number;
  source: string;
  network_booking: string | null;
  callsign: string;
  position_id: number;
  name: string;
  time_start: string;
  time_end: string;
  user_id: number;
  training: number;
  event: number;
  exam: number;
  deleted: number;
  created_at: string;
  updated_at: string;
}

/** The reduced form (without a key): nothing that identifies the booker. */
export type BookingReducedJson = Pick<
  BookingFullJson,
  'id' | 'callsign' | 'time_start' | 'time_end' | 'training' | 'event' | 'exam' | 'created_at' | 'updated_at'
>;

export type BookingForm = 'full' | 'reduced';

export function presentBookingFull(b: BookingView): BookingFullJson {
  return {
    id: b.id,
    source: b.source,
    network_booking: b.network_booking,
    callsign: b.callsign,
    position_id: b.position_id,
    name: [b.first_name, b.last_name].filter((s) => s !== null && s !== '').join(' '),
    time_start: ymdHis(b.time_start),
    time_end: ymdHis(b.time_end),
    user_id: b.user_id,
    training: b.training,
    event: b.event,
    exam: b.exam,
    deleted: b.deleted,
    created_at: isoMicros(b.created_at),
    updated_at: isoMicros(b.updated_at),
  };
}

export function presentBookingReduced(b: BookingView): BookingReducedJson {
  return {
    id: b.id,
    callsign: b.callsign,
    time_start: ymdHis(b.time_start),
    time_end: ymdHis(b.time_end),
    training: b.training,
    event: b.event,
    exam: b.exam,
    created_at: isoMicros(b.created_at),
    updated_at: isoMicros(b.updated_at),
  };
}

export function presentBooking(b: BookingView, form: BookingForm): BookingFullJson | BookingReducedJson {
  return form === 'full' ? presentBookingFull(b) : presentBookingReduced(b);
}

/** The body of GET /api/bookings. */
export function bookingListBody(rows: BookingView[], form: BookingForm): Array<BookingFullJson | BookingReducedJson> {
  return rows.map((b) => presentBooking(b, form));
}

/** The body of GET /api/bookings/{id}. */
export function bookingBody(b: BookingView, form: BookingForm): BookingFullJson | BookingReducedJson {
  return presentBooking(b, form);
}

export interface BookingWriteJson {
  message: string;
  booking: BookingFullJson;
  /** Present only when training was forced by the user's rating or a missing facility endorsement. */
  tag?: 'Training';
}

function writeBody(message: string, b: BookingView, forcedTraining: boolean): BookingWriteJson {
  return { message, booking: presentBookingFull(b), ...(forcedTraining ? { tag: 'Training' as const } : {}) };
}

export function bookingCreatedBody(b: BookingView, forcedTraining: boolean): BookingWriteJson {
  return writeBody('Booking created', b, forcedTraining);
}

/** Control Center's create answer (compatibility profile): `success` instead of `message`, status 200. */
export function bookingCreatedControlCenterBody(b: BookingView, forcedTraining: boolean) {
  const { message: _message, ...rest } = bookingCreatedBody(b, forcedTraining);
  return { success: 'Booking created' as const, ...rest };
}

export function bookingUpdatedBody(b: BookingView, forcedTraining: boolean): BookingWriteJson {
  return writeBody('Booking updated', b, forcedTraining);
}

export function bookingDeletedBody(b: BookingView): BookingWriteJson {
  return writeBody('Booking deleted', b, false);
}
