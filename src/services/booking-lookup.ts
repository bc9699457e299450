import { isBookingId } from '../domain/bookings/index.js';
import { NotFoundError } from '../domain/errors.js';
import type { BookingForm } from '../presenters/bookings.js';
import type { BookingsRepository, BookingView } from '../repositories/bookings.js';

/** GET /api/bookings/{id}: any booking with a key, deleted ones too; without a key, live ones only. */
export class BookingLookup {
  constructor(private readonly bookings: BookingsRepository) {}

  async find(id: number, form: BookingForm): Promise<BookingView> {
    const booking = isBookingId(id) ? await this.bookings.findById(id) : undefined;
    // Without a key a deleted booking is gone, as in the public list.
    if (!booking || (booking.deleted && form === 'reduced')) throw new NotFoundError('Booking');
    return booking;
  }
}
