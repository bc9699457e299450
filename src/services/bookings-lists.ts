import type { BookingListFilter, ListPosition } from '../domain/bookings/index.js';
import { bookingListBody, type BookingForm } from '../presenters/bookings.js';
import type { BookingsRepository } from '../repositories/bookings.js';
import type { BookingFull, BookingReduced } from '../schemas/bookings.js';

export interface BookingsPage {
  bookings: Array<BookingFull | BookingReduced>;
  /** Where the next page starts, when `limit` was given and more bookings follow. */
  next: ListPosition | null;
}

/** GET /api/bookings: the live bookings the filter selects, one query. */
export class BookingLists {
  constructor(private readonly bookings: BookingsRepository) {}

  async list(form: BookingForm, filter: BookingListFilter): Promise<BookingsPage> {
    const limit = filter.limit;
    // One more than a page: whether another follows.
    const rows = await this.bookings.list(limit === undefined ? filter : { ...filter, limit: limit + 1 });
    const more = limit !== undefined && rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const last = page.at(-1);
    return { bookings: bookingListBody(page, form), next: more && last ? { time_start: last.time_start, id: last.id } : null };
  }
}
