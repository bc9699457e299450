// The examination routes of the API (contract §18, §20): plan or record, change, cancel.
import { Type, type Static } from 'typebox';
import { EXAMINATION_RESULTS } from './domain.js';
import { ErrorBody, nullable } from '../../core/web/schema-atoms.js';
import { cid, Examination, IdParams, list, TRAINING_ID_PATH, writeErrors } from './trainings.schema.js';

export const EXAMINATION_PATH = `${TRAINING_ID_PATH}/examinations/:xid(^\\d{1,10}$)`;
const ExaminationParams = Type.Object({ id: Type.Integer({ minimum: 1 }), xid: Type.Integer({ minimum: 1 }) });

const fields = {
  examination_date: Type.String({ maxLength: 20, description: 'YYYY-MM-DD' }),
  start: Type.Optional(nullable(Type.String({ maxLength: 10, description: 'Start time, HH:MM UTC' }))),
  position: Type.String({ maxLength: 40, description: 'Callsign' }),
  examiners: Type.Optional(list(cid)),
  examiner_id: Type.Optional(cid),
  result: Type.Optional(nullable(Type.String({ maxLength: 20, description: `${EXAMINATION_RESULTS.join(', ')}; none: planned` }))),
};

export const ExaminationBody = Type.Object(fields, { additionalProperties: false });
export type ExaminationBody = Static<typeof ExaminationBody>;
export const ExaminationPatchBody = Type.Object(
  {
    examination_date: Type.Optional(fields.examination_date),
    start: fields.start,
    position: Type.Optional(fields.position),
    examiners: fields.examiners,
    examiner_id: fields.examiner_id,
    result: Type.Optional(Type.String({ maxLength: 20, description: EXAMINATION_RESULTS.join(', ') })),
  },
  { additionalProperties: false },
);

const tags = ['trainings'];
const eligibility =
  'Each examiner holds an active examiner endorsement covering the training’s area whose rating is at or above the position’s (422 naming who does not).';

export const createExamination = {
  operationId: 'createTrainingExamination',
  tags,
  summary: 'Plan or record an examination',
  description: `Without \`result\` the examination is planned. \`examiners\` (1–2 CIDs) or \`examiner_id\` (the first examiner, §18); both given and different: 422. ${eligibility}`,
  params: IdParams,
  body: ExaminationBody,
  response: { 201: Examination, ...writeErrors },
};

export const updateExamination = {
  operationId: 'updateTrainingExamination',
  tags,
  summary: 'Grade, move or change the examiners of an examination',
  description: `A graded result is corrected only by a Moderator or Administrator of the area. ${eligibility}`,
  params: ExaminationParams,
  body: ExaminationPatchBody,
  response: { 200: Examination, ...writeErrors },
};

export const deleteExamination = {
  operationId: 'deleteTrainingExamination',
  tags,
  summary: 'Cancel a planned examination',
  description: 'A graded examination cannot be cancelled (409).',
  params: ExaminationParams,
  response: { 204: Type.Null(), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody },
};
