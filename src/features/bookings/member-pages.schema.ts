// What a member's booking pages take (./member.routes.ts), page forms of the atoms every page shares
// (src/core/web/form-atoms.ts). A repeated field's first value counts.
import { Csrf, Field, IdPath, pageForm } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;

/** A booking's id in a page's path: anything that is not one gets "no such booking". */
const BookingPath = IdPath();

const BookingForm = pageForm({
  position: Field(),
  date: Field(),
  start_at: Field(),
  end_at: Field(),
  tag: Field(),
  _csrf: Csrf,
});
const CsrfOnly = pageForm({ _csrf: Csrf });

export const bookingFormPage = { ...hidden };
export const editBookingPage = { ...hidden, params: BookingPath };
export const bookingForm = { ...hidden, body: BookingForm };
export const changeBookingForm = { ...hidden, params: BookingPath, body: BookingForm };
export const cancelBookingForm = { ...hidden, params: BookingPath, body: CsrfOnly };
export const myBookingsPage = { ...hidden, querystring: pageForm({ done: Field(), id: Field(), forced: Field() }) };
export const renewCalendarForm = { ...hidden, body: CsrfOnly };
