// What the members' and public pages take, declared as the API's are: page forms of the atoms every
// page shares (src/core/web/form-atoms.ts). A repeated field's first value counts; unknown parameters
// are let through (other sites' links and the network's sign-in add their own).
import { Type } from 'typebox';
import { Checkbox, CheckboxList, Csrf, Field, IdField, IdPath, IntegerField, pageForm, Prose } from './form-atoms.js';

const hidden = { hide: true } as const;

export const signInPage = { ...hidden, querystring: pageForm({ next: Field() }) };
export const signInCallback = { ...hidden, querystring: pageForm({ code: Field(), state: Field(), error: Field() }) };
/** npm run demo: signing in as a demo person (src/features/sign-in/demo.routes.ts); its token is checked by its route. */
export const demoSignInForm = { ...hidden, body: pageForm({ cid: IdField(), next: Field(), _csrf: Csrf }) };
export const signOutForm = { ...hidden, body: Type.Optional(pageForm({ _csrf: Csrf })) };

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
export const memberCalendar = { ...hidden, params: Type.Object({ file: Type.String({ maxLength: 200 }) }) };

export const trainingApplyPage = { ...hidden };
export const trainingApplyForm = {
  ...hidden,
  body: pageForm({
    area: Field(),
    ratings: CheckboxList(Field()),
    motivation: Prose(),
    experience: IntegerField(1, 6, 'Choose your experience.'),
    english_only: Checkbox(),
    _csrf: Csrf,
  }),
};
export const myTrainingPage = { ...hidden, querystring: pageForm({ done: Field() }) };
export const myTrainingForm = { ...hidden, body: CsrfOnly };
