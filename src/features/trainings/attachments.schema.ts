// Files on training reports and examinations (contract §20) and the schemas of their routes.
import { type Static, Type } from 'typebox';
import { ErrorBody, isoTimestamp, stringEnum, ValidationErrorBody } from '../../core/web/schema-atoms.js';
import { ATTACHMENT_BYTES_MAX, ATTACHMENT_TYPES, ATTACHMENTS_MAX } from './attachments.domain.js';

export const Attachment = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: 'As uploaded, ending in the extension of its type' }),
    type: stringEnum(Object.keys(ATTACHMENT_TYPES) as Array<keyof typeof ATTACHMENT_TYPES>, {
      description: 'Found from the content, not the name',
    }),
    size: Type.Integer({ description: 'Bytes' }),
    hidden: Type.Boolean({ description: 'Shown to staff only, never to the student' }),
    created_at: isoTimestamp('2026-03-01T10:00:00.000000Z', 'Uploaded'),
  },
  { additionalProperties: false, title: 'Attachment' },
);
export type Attachment = Static<typeof Attachment>;

/** A list of attachments, as reports and examinations carry them. */
export const Attachments = Type.Array(Attachment, { description: `Files, oldest first (at most ${ATTACHMENTS_MAX})` });

const id = () => Type.Integer({ minimum: 1 });
const tags = ['trainings'];
const UploadBody = Type.Object(
  {
    file: Type.String({ format: 'binary', description: `The file: PDF, PNG, JPEG or UTF-8 text, at most ${ATTACHMENT_BYTES_MAX} bytes` }),
    hidden: Type.Optional(stringEnum(['true', 'false'], { description: 'true: shown to staff only' })),
  },
  { additionalProperties: false },
);
const uploadResponses = {
  201: Attachment,
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  422: ValidationErrorBody,
  429: ErrorBody,
};
const description =
  `Multipart form data with the field \`file\` (and \`hidden\`). PDF, PNG and JPEG are recognised from the content, ` +
  `plain text is valid UTF-8 without NUL; anything else is 415. At most ${ATTACHMENTS_MAX} files of 10 MB (413 above) per record.`;
// The body is streamed by the route (a larger one is refused without being read whole): this
// schema documents it and is not run (src/core/web/validation.ts).
const multipart = { content: { 'multipart/form-data': { schema: UploadBody } } };

export const uploadReportAttachment = {
  operationId: 'uploadTrainingReportAttachment',
  tags,
  summary: 'Attach a file to a training report',
  description,
  params: Type.Object({ id: id(), rid: id() }),
  body: multipart,
  response: uploadResponses,
};

export const uploadExaminationAttachment = {
  operationId: 'uploadTrainingExaminationAttachment',
  tags,
  summary: 'Attach a file to an examination',
  description,
  params: Type.Object({ id: id(), xid: id() }),
  body: multipart,
  response: uploadResponses,
};

const AttachmentParams = Type.Object({ id: id() });

export const getAttachment = {
  operationId: 'getTrainingAttachment',
  tags,
  summary: 'Download an attachment',
  description: 'The file, with its type, `Content-Disposition: attachment` and `X-Content-Type-Options: nosniff`; hidden ones too.',
  params: AttachmentParams,
  response: {
    200: {
      description: 'The file',
      content: Object.fromEntries(Object.keys(ATTACHMENT_TYPES).map((type) => [type, { schema: Type.String({ format: 'binary' }) }])),
    },
    401: ErrorBody,
    404: ErrorBody,
    429: ErrorBody,
  },
};

export const deleteAttachment = {
  operationId: 'deleteTrainingAttachment',
  tags,
  summary: 'Remove an attachment',
  description: 'By its uploader or a Moderator or Administrator of the area (an edit key may remove any).',
  params: AttachmentParams,
  response: { 204: Type.Null({ description: 'Removed' }), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody },
};

/** The page routes' paths (hidden from the API document). */
export const attachmentPage = { hide: true, params: AttachmentParams };
