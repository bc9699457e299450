// What the pages take, declared as the API's are. A repeated field's first value counts; unknown
// parameters are let through (other sites' links and the network's sign-in add their own).
import { Type } from 'typebox';
import { Checkbox, CheckboxList, Csrf, Field as FormField, IdPath, IntegerField, pageForm, Prose } from './form-atoms.js';

const Field = Type.Union([Type.String({ maxLength: 2000 }), Type.Array(Type.String({ maxLength: 2000 }), { maxItems: 20 })]);

/** The first value of a field, or undefined. */
export const firstOf = (v: unknown): string | undefined =>
  typeof v === 'string' ? v : Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;

const hidden = { hide: true } as const;

export const signInPage = { ...hidden, querystring: Type.Object({ next: Type.Optional(Field) }) };
export const signInCallback = {
  ...hidden,
  querystring: Type.Object({ code: Type.Optional(Field), state: Type.Optional(Field), error: Type.Optional(Field) }),
};
/** npm run demo: signing in as a demo person (src/routes/sign-in/demo.ts). */
export const demoSignInForm = {
  ...hidden,
  body: Type.Object({ cid: Type.Optional(Field), next: Type.Optional(Field), _csrf: Type.Optional(Field) }),
};
export const signOutForm = { ...hidden, body: Type.Optional(Type.Object({ _csrf: Type.Optional(Field) })) };

/** A booking's id in a page's path: anything that is not one gets "no such booking". */
const BookingPath = IdPath();

const BookingForm = pageForm({
  position: FormField(),
  date: FormField(),
  start_at: FormField(),
  end_at: FormField(),
  tag: FormField(),
  _csrf: Csrf,
});
const CsrfOnly = pageForm({ _csrf: Csrf });

export const bookingFormPage = { ...hidden };
export const editBookingPage = { ...hidden, params: BookingPath };
export const bookingForm = { ...hidden, body: BookingForm };
export const changeBookingForm = { ...hidden, params: BookingPath, body: BookingForm };
export const cancelBookingForm = { ...hidden, params: BookingPath, body: CsrfOnly };
export const myBookingsPage = { ...hidden, querystring: pageForm({ done: FormField(), id: FormField(), forced: FormField() }) };
export const renewCalendarForm = { ...hidden, body: CsrfOnly };
export const memberCalendar = { ...hidden, params: Type.Object({ file: Type.String({ maxLength: 200 }) }) };

export const trainingApplyPage = { ...hidden };
export const trainingApplyForm = {
  ...hidden,
  body: pageForm({
    area: FormField(),
    ratings: CheckboxList(FormField()),
    motivation: Prose(),
    experience: IntegerField(1, 6, 'Choose your experience.'),
    english_only: Checkbox(),
    _csrf: Csrf,
  }),
};
export const myTrainingPage = { ...hidden, querystring: pageForm({ done: FormField() }) };
export const myTrainingForm = { ...hidden, body: CsrfOnly };
