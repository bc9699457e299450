// Bookings of control positions: the API (contract §1–§8), members' own bookings on the pages.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { VERSION } from '../../version.js';
import { BookingsService } from './bookings.service.js';
import bookingsRoutes from './bookings.routes.js';
import { IdempotencyService } from './idempotency.service.js';
import { idempotencyKeysWorker } from './idempotency-keys.worker.js';
import { MemberBookingsService } from './member-bookings.service.js';
import memberBookingsRoutes from './member.routes.js';

// What other features use of this one.
export { cancelUpcomingBookings } from './erasure.js';
export type { MemberBooking } from './member-bookings.repository.js';
export { described, fieldError, frame, whenText, type PageFrame } from './views/member-pages.js';
export { bookingViewsByIds } from './bookings.repository.js';
export { importChanges, type ImportedBooking } from './changes.js';
export { recordBookingChanges } from './events.js';

export { BOOKING_FORMATS } from './formats.js';
export { liveBookingsMetric } from './metrics.js';

function services(deps: ServiceDeps) {
  const bookings = new BookingsService(deps);
  return {
    bookings,
    /** Idempotency-Key on the bookings' creates: claims, stored responses, replays. */
    idempotency: new IdempotencyService(deps),
    /** Members' own bookings (the booking pages): who-may-book over bookings, and their calendar feeds. */
    memberBookings: new MemberBookingsService({ ...deps, bookings, version: VERSION }),
  };
}

export const bookings: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [bookingsRoutes], members: [memberBookingsRoutes] },
  workers: ({ writer }) => [idempotencyKeysWorker({ writer })],
};
