// What the staff training pages (contract §18, src/features/trainings/staff.routes.ts) take, each a page form
// of the atoms every page shares (src/core/web/form-atoms.ts). A field the services check further
// (a type, a date, a callsign) is text here; a CID or a status is a number, named by its message.
import { TRAINING_STATUSES } from './domain.js';
import { Checkbox, CheckboxList, Csrf, Field, IdField, IdPath, IntegerField, pageForm, Prose } from '../../core/web/form-atoms.js';

const hidden = { hide: true } as const;
const TrainingPath = IdPath('id');

export const staffTrainingsPage = { ...hidden, querystring: pageForm({ area: Field(), status: Field(), done: Field() }) };
export const staffTrainingPage = { ...hidden, params: TrainingPath, querystring: pageForm({ done: Field(), template: Field() }) };
export const createTrainingForm = {
  ...hidden,
  body: pageForm({
    user_id: IdField('Give the CID of the member to train (a number).'),
    area: Field(),
    type: Field(),
    ratings: Field(),
    status: IntegerField(0, 3, 'The status must be one of: 0, 1, 2, 3.'),
    _csrf: Csrf,
  }),
};
export const trainingStatusForm = {
  ...hidden,
  params: TrainingPath,
  body: pageForm({
    status: IntegerField(TRAINING_STATUSES[0], 3, `The status must be one of: ${TRAINING_STATUSES.join(', ')}.`),
    closed_reason: Field(),
    _csrf: Csrf,
  }),
};
export const trainingChangeForm = {
  ...hidden,
  params: TrainingPath,
  body: pageForm({
    type: Field(),
    mentors: CheckboxList(IdField('Each mentor is named by their CID (a number).')),
    paused: Checkbox(),
    _csrf: Csrf,
  }),
};
export const trainingReportForm = {
  ...hidden,
  params: TrainingPath,
  body: pageForm({ report_date: Field(), position: Field(), content: Prose(), improve: Prose(), draft: Checkbox(), _csrf: Csrf }),
};
export const trainingExamForm = {
  ...hidden,
  params: TrainingPath,
  body: pageForm({
    examination_date: Field(),
    position: Field(),
    examiner_id: IdField('Give the examiner’s CID (a number).'),
    result: Field(),
    _csrf: Csrf,
  }),
};
