// What the student's training pages take (./member.routes.ts), page forms of the atoms every page shares
// (src/core/web/form-atoms.ts).
import { Checkbox, CheckboxList, Csrf, Field, IntegerField, pageForm, Prose } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;
const CsrfOnly = pageForm({ _csrf: Csrf });

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
