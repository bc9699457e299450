// Trainings (contract §18) and the schemas of their routes.
import { type Static, Type } from 'typebox';
import { MAX_CID } from '../../core/domain/limits.js';
import { EXAMINATION_RESULTS, TRAINING_STATUSES, TRAINING_TYPES } from './domain.js';
import { Attachments } from './attachments.schema.js';
import { ErrorBody, isoTimestamp, nullable, stringEnum, ValidationErrorBody } from '../../core/web/schema-atoms.js';

const iso = (description: string) => isoTimestamp('2026-03-01T10:00:00.000000Z', description);
const date = (description: string) =>
  Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', examples: ['2026-03-14'], description: `${description} (YYYY-MM-DD)` });

export const Training = Type.Object(
  {
    id: Type.Integer(),
    user_id: Type.Integer({ description: 'CID of the student' }),
    area: Type.String(),
    type: stringEnum(TRAINING_TYPES),
    status: Type.Integer({ enum: [...TRAINING_STATUSES] }),
    status_description: Type.String(),
    ratings: Type.Array(Type.String(), { description: 'Rating codes, then facility endorsement names, trained for' }),
    created_at: iso('Applied or created'),
    started_at: nullable(iso('Left the queue')),
    closed_at: nullable(iso('Closed')),
    closed_reason: nullable(Type.String()),
    paused: Type.Boolean(),
    mentors: Type.Array(Type.Integer(), { description: 'CIDs' }),
    motivation: nullable(Type.String()),
    experience: nullable(Type.Integer({ minimum: 1, maximum: 6 })),
    english_only: Type.Boolean(),
  },
  { additionalProperties: false, title: 'Training' },
);
export type Training = Static<typeof Training>;

export const Report = Type.Object(
  {
    id: Type.Integer(),
    training_id: Type.Integer(),
    report_date: date('Day of the session'),
    content: Type.String({ description: 'Markdown' }),
    improve: nullable(Type.String()),
    position: nullable(Type.String()),
    draft: Type.Boolean({ description: 'Not shown to the student, not published' }),
    author_id: nullable(Type.Integer()),
    created_at: iso('Written'),
  },
  { additionalProperties: false, title: 'Training report' },
);
export type Report = Static<typeof Report>;

export const Examination = Type.Object(
  {
    id: Type.Integer(),
    training_id: Type.Integer(),
    examination_date: date('Day of the examination'),
    start: nullable(Type.String({ pattern: '^\\d{2}:\\d{2}$', examples: ['18:00'], description: 'Start time, HH:MM UTC' })),
    position: Type.String(),
    examiner_id: Type.Integer({ description: 'The first examiner (CID)' }),
    examiners: Type.Array(Type.Integer(), { minItems: 1, maxItems: 2, description: 'CIDs, the first being examiner_id' }),
    result: nullable(stringEnum(EXAMINATION_RESULTS, { description: 'Null: planned, not graded yet' })),
    created_at: iso('Recorded'),
    updated_at: iso('Last changed'),
  },
  { additionalProperties: false, title: 'Examination' },
);
export type Examination = Static<typeof Examination>;

export const TimelineEntry = Type.Object(
  {
    at: iso('When'),
    actor: Type.String({ description: '`member:<cid>`, `key:<id>`, `cli` or `system`' }),
    actor_name: nullable(Type.String()),
    action: Type.String(),
    detail: Type.Record(Type.String(), Type.Unknown()),
  },
  { additionalProperties: false },
);

export const TrainingDetail = Type.Object(
  {
    ...Training.properties,
    reports: Type.Array(Type.Object({ ...Report.properties, attachments: Attachments }, { additionalProperties: false })),
    examinations: Type.Array(Type.Object({ ...Examination.properties, attachments: Attachments }, { additionalProperties: false })),
    timeline: Type.Array(TimelineEntry),
  },
  { additionalProperties: false, title: 'Training with its records' },
);
export type TrainingDetail = Static<typeof TrainingDetail>;

export const TRAINING_ID_PATH = '/api/trainings/:id(^\\d{1,10}$)';
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
export const cid = Type.Union([Type.Integer({ minimum: 1, maximum: MAX_CID }), Type.String({ pattern: '^\\d{1,8}$' })]);
const flag = Type.Union([Type.Boolean(), stringEnum(['true', 'false', '1', '0', 'on'] as const)]);
const integer = (min: number, max: number) =>
  Type.Union([Type.Integer({ minimum: min, maximum: max }), Type.String({ pattern: '^-?\\d{1,2}$' })]);
export const list = <T extends Parameters<typeof Type.Array>[0]>(t: T) => Type.Union([Type.Array(t, { maxItems: 50 }), t]);

export const CreateTrainingBody = Type.Object(
  {
    user_id: cid,
    area: Type.String({ maxLength: 100 }),
    type: Type.Optional(Type.String({ maxLength: 30, description: TRAINING_TYPES.join(', ') })),
    status: Type.Optional(integer(0, 3)),
    ratings: Type.Optional(list(Type.String({ maxLength: 100 }))),
    motivation: Type.Optional(nullable(Type.String({ maxLength: 5000 }))),
    experience: Type.Optional(nullable(integer(1, 6))),
    english_only: Type.Optional(flag),
  },
  { additionalProperties: false },
);
export type CreateTrainingBody = Static<typeof CreateTrainingBody>;

export const UpdateTrainingBody = Type.Object(
  {
    status: Type.Optional(integer(-4, 3)),
    type: Type.Optional(Type.String({ maxLength: 30 })),
    mentors: Type.Optional(list(cid)),
    paused: Type.Optional(flag),
    closed_reason: Type.Optional(Type.String({ maxLength: 200 })),
  },
  { additionalProperties: false },
);
export type UpdateTrainingBody = Static<typeof UpdateTrainingBody>;

export const ReportBody = Type.Object(
  {
    report_date: Type.String({ maxLength: 20 }),
    content: Type.String({ maxLength: 25_000 }),
    improve: Type.Optional(nullable(Type.String({ maxLength: 25_000 }))),
    position: Type.Optional(nullable(Type.String({ maxLength: 40 }))),
    draft: Type.Optional(flag),
  },
  { additionalProperties: false },
);
export type ReportBody = Static<typeof ReportBody>;

export const writeErrors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };
const tags = ['trainings'];

export const listTrainings = {
  operationId: 'listTrainings',
  tags,
  summary: 'List trainings',
  description: 'Trainings, sorted by id; filter by area name, status and student.',
  querystring: Type.Object(
    {
      area: Type.Optional(Type.String({ maxLength: 100 })),
      status: Type.Optional(Type.Integer({ enum: [...TRAINING_STATUSES] })),
      user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CID })),
    },
    { additionalProperties: false },
  ),
  response: {
    200: Type.Object({ data: Type.Array(Training) }, { additionalProperties: false }),
    401: ErrorBody,
    422: ValidationErrorBody,
    429: ErrorBody,
  },
};

export const getTraining = {
  operationId: 'getTraining',
  tags,
  summary: 'Get a training with its reports, examinations and timeline',
  params: IdParams,
  response: { 200: TrainingDetail, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
};

export const createTraining = {
  operationId: 'createTraining',
  tags,
  summary: 'Create a training',
  description: 'Starts In queue (0) unless `status` is given.',
  body: CreateTrainingBody,
  response: { 201: Training, ...writeErrors },
};

export const updateTraining = {
  operationId: 'updateTraining',
  tags,
  summary: 'Change a training',
  description:
    'Status, type, mentors, pause. An illegal transition is 409 naming both statuses; closing by staff (-2) needs `closed_reason`.',
  params: IdParams,
  body: UpdateTrainingBody,
  response: { 200: Training, ...writeErrors },
};

export const createReport = {
  operationId: 'createTrainingReport',
  tags,
  summary: 'Write a training report',
  params: IdParams,
  body: ReportBody,
  response: { 201: Report, ...writeErrors },
};
