import { isoMicros, ymdHis } from '../../core/domain/time.js';
import type { BookingView } from './bookings.repository.js';
import type {
  BookingCreated,
  BookingCreatedControlCenter,
  BookingDeleted,
  BookingFull,
  BookingReduced,
  BookingUpdated,
} from './bookings.schema.js';
import type { BatchCreated, BatchCreatedControlCenter } from './booking-batch.schema.js';

export type BookingForm = 'full' | 'reduced';

/** The full form (with an API key), in the documented property order (docs/api.md). */
export function presentBookingFull(b: BookingView): BookingFull {
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

/** The reduced form (without a key): nothing that identifies the booker. */
export function presentBookingReduced(b: BookingView): BookingReduced {
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

export function presentBooking(b: BookingView, form: BookingForm): BookingFull | BookingReduced {
  return form === 'full' ? presentBookingFull(b) : presentBookingReduced(b);
}

/** The body of GET /api/bookings. */
export function bookingListBody(rows: BookingView[], form: BookingForm): Array<BookingFull | BookingReduced> {
  return rows.map((b) => presentBooking(b, form));
}

/** The body of GET /api/bookings/{id}. */
export function bookingBody(b: BookingView, form: BookingForm): BookingFull | BookingReduced {
  return presentBooking(b, form);
}

/** What every write returns after its message: the booking, and the tag only when training was forced. */
function written(b: BookingView, forcedTraining: boolean): Pick<BookingCreated, 'booking' | 'tag'> {
  return { booking: presentBookingFull(b), ...(forcedTraining ? { tag: 'Training' as const } : {}) };
}

export function bookingCreatedBody(b: BookingView, forcedTraining: boolean): BookingCreated {
  return { message: 'Booking created', ...written(b, forcedTraining) };
}

/** Control Center's create response (compatibility profile): `success` instead of `message`, status 200. */
export function bookingCreatedControlCenterBody(b: BookingView, forcedTraining: boolean): BookingCreatedControlCenter {
  return { success: 'Booking created', ...written(b, forcedTraining) };
}

export function bookingUpdatedBody(b: BookingView, forcedTraining: boolean): BookingUpdated {
  return { message: 'Booking updated', ...written(b, forcedTraining) };
}

export function bookingDeletedBody(b: BookingView): BookingDeleted {
  return { message: 'Booking deleted', ...written(b, false) };
}

/** A batch's response: every new booking, in the order given. */
export function batchCreatedBody(bookings: readonly BookingView[]): BatchCreated {
  return { message: 'Bookings created', bookings: bookings.map(presentBookingFull) };
}

/** A batch's response in the compatibility profile: `success`, as Control Center responds to a create. */
export function batchCreatedControlCenterBody(bookings: readonly BookingView[]): BatchCreatedControlCenter {
  return { success: 'Bookings created', bookings: bookings.map(presentBookingFull) };
}
