// Bookings of control positions: the API (contract §1–§8), members' own bookings on the pages.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { VERSION } from '../../version.js';
import { Bookings } from './bookings.service.js';
import bookingsRoutes from './bookings.routes.js';
import { Idempotency } from './idempotency.service.js';
import { idempotencyKeysWorker } from './idempotency-keys.worker.js';
import { MemberBookings } from './member-bookings.service.js';
import memberBookingsRoutes from './member.routes.js';

export { BOOKING_FORMATS } from './formats.js';

function services(deps: ServiceDeps) {
  const bookings = new Bookings(deps);
  return {
    bookings,
    /** Idempotency-Key on the bookings' creates: claims, stored responses, replays. */
    idempotency: new Idempotency(deps),
    /** Members' own bookings (the booking pages): who-may-book over bookings, and their calendar feeds. */
    memberBookings: new MemberBookings({ ...deps, bookings, version: VERSION }),
  };
}

export const bookings: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [bookingsRoutes], members: [memberBookingsRoutes] },
  workers: ({ writer }) => [idempotencyKeysWorker({ writer })],
};
