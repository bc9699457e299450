// The routes of reports after they are written (contract §20): PATCH and DELETE /api/trainings/{id}/reports/{rid}.
import { Type, type Static } from 'typebox';
import { ErrorBody, nullable, stringEnum, ValidationErrorBody } from '../../core/web/schema-atoms.js';
import { Report } from './trainings.schema.js';

export const REPORT_PATH = '/api/trainings/:id(^\\d{1,10}$)/reports/:rid(^\\d{1,10}$)';
const Params = Type.Object({ id: Type.Integer({ minimum: 1 }), rid: Type.Integer({ minimum: 1 }) });
const flag = Type.Union([Type.Boolean(), stringEnum(['true', 'false', '1', '0', 'on'] as const)]);

export const ReportPatchBody = Type.Object(
  {
    report_date: Type.Optional(Type.String({ maxLength: 20, description: 'YYYY-MM-DD' })),
    content: Type.Optional(Type.String({ maxLength: 25_000, description: 'Markdown' })),
    improve: Type.Optional(nullable(Type.String({ maxLength: 25_000 }))),
    position: Type.Optional(nullable(Type.String({ maxLength: 40 }))),
    draft: Type.Optional(flag),
  },
  { additionalProperties: false },
);
export type ReportPatchBody = Static<typeof ReportPatchBody>;

const errors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody };
const tags = ['trainings'];

export const updateReport = {
  operationId: 'updateTrainingReport',
  tags,
  summary: 'Edit or publish a training report',
  description:
    'Any of the fields. `draft: false` publishes a draft (event `training.report`, the student is mailed); a published report ' +
    'cannot become a draft again (409); editing a published report publishes `training.report` with `edited: true` and mails nobody.',
  params: Params,
  body: ReportPatchBody,
  response: { 200: Report, ...errors, 422: ValidationErrorBody },
};

export const deleteReport = {
  operationId: 'deleteTrainingReport',
  tags,
  summary: 'Delete a training report',
  description: 'Kept in the timeline; a published report’s deletion is published as `training.report_deleted`.',
  params: Params,
  response: { 204: Type.Null({ description: 'Deleted' }), ...errors },
};
