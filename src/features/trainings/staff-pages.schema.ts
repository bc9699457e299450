// What the staff training pages (contract §18, src/features/trainings/staff.routes.ts) take, each a page form
// of the atoms every page shares (src/core/web/form-atoms.ts). A field the services check further
// (a type, a date, a callsign) is text here; a CID or a status is a number, named by its message.
import { Type } from 'typebox';
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
const Examiners = CheckboxList(IdField('Each examiner is named by their CID (a number).'));
export const trainingExamForm = {
  ...hidden,
  params: TrainingPath,
  body: pageForm({
    examination_date: Field(),
    start: Field(),
    position: Field(),
    examiners: Examiners,
    result: Field(),
    _csrf: Csrf,
  }),
};
const ExamPath = Type.Object({ ...TrainingPath.properties, ...IdPath('xid').properties });
export const examGradeForm = { ...hidden, params: ExamPath, body: pageForm({ result: Field(), _csrf: Csrf }) };
export const examMoveForm = {
  ...hidden,
  params: ExamPath,
  body: pageForm({ examination_date: Field(), start: Field(), position: Field(), examiners: Examiners, _csrf: Csrf }),
};
export const examCancelForm = { ...hidden, params: ExamPath, body: pageForm({ _csrf: Csrf }) };
/** GET /staff/exams. */
export const staffExamsPage = { ...hidden };
