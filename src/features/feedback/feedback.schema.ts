// Feedback's API answer and page forms (contract §23).
import { type Static, Type } from 'typebox';
import { ErrorBody, ValidationErrorBody, isoTimestamp, nullable } from '../../core/web/schema-atoms.js';
import { Checkbox, Csrf, Field, IdPath, pageForm, Prose } from '../../core/web/form-atoms.js';

export const FeedbackItem = Type.Object(
  {
    id: Type.Integer(),
    controller: nullable(Type.Integer({ description: 'CID of the controller it is about' })),
    position: nullable(Type.String({ examples: ['EKCH_TWR'] })),
    area: nullable(Type.String({ description: "The position's area" })),
    text: Type.String(),
    actioned: Type.Boolean(),
    created_at: isoTimestamp('2026-03-10T18:00:00.000000Z'),
  },
  { additionalProperties: false },
);
export type FeedbackItem = Static<typeof FeedbackItem>;

export const listFeedback = {
  operationId: 'listFeedback',
  tags: ['feedback'],
  summary: 'Feedback',
  description: 'Feedback members sent, newest first (at most 500), without the sender or staff comments.',
  querystring: Type.Object({
    area: Type.Optional(Type.String({ maxLength: 100, description: "Only feedback on this area's positions" })),
    controller: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647, description: 'Only feedback on this CID' })),
  }),
  response: {
    200: Type.Object({ data: Type.Array(FeedbackItem) }, { additionalProperties: false }),
    400: ErrorBody,
    401: ErrorBody,
    422: ValidationErrorBody,
    429: ErrorBody,
  },
};

const hidden = { hide: true } as const;
export const feedbackPage = { ...hidden, querystring: pageForm({ done: Field() }) };
export const sendFeedbackForm = { ...hidden, body: pageForm({ controller: Field(), position: Field(), text: Prose(), _csrf: Csrf }) };
export const staffFeedbackPage = { ...hidden, querystring: pageForm({ done: Field() }) };
export const correctFeedbackForm = { ...hidden, params: IdPath(), body: pageForm({ controller: Field(), position: Field(), _csrf: Csrf }) };
export const actionedFeedbackForm = { ...hidden, params: IdPath(), body: pageForm({ actioned: Checkbox(), _csrf: Csrf }) };
export const commentFeedbackForm = { ...hidden, params: IdPath(), body: pageForm({ comment: Prose(), _csrf: Csrf }) };
