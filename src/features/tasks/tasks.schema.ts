// Tasks between staff (contract §21): the task and the schemas of its API routes.
import { type Static, Type } from 'typebox';
import { MAX_CID } from '../../core/domain/limits.js';
import { ErrorBody, isoTimestamp, nullable, stringEnum, ValidationErrorBody } from '../../core/web/schema-atoms.js';
import { CLOSING_STATUSES, TASK_STATUSES, TASK_TEXT_MAX, TASK_TYPES } from './domain.js';

const iso = (description: string) => isoTimestamp('2026-03-01T10:00:00.000000Z', description);
const cid = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_CID, description });

export const Task = Type.Object(
  {
    id: Type.Integer(),
    type: stringEnum(TASK_TYPES),
    status: stringEnum(TASK_STATUSES),
    subject_user_id: Type.Integer({ description: 'CID of the student the task is about' }),
    training_id: nullable(Type.Integer({ description: 'Null only for a custom task' })),
    rating: Type.Optional(Type.String({ description: 'Rating code: rating_upgrade (the new rating) and theory_exam (the exam’s rating)' })),
    message: Type.Optional(Type.String({ description: 'From the creator (1–1000); always given for custom' })),
    creator_id: Type.Integer({ description: 'CID' }),
    assignee_id: Type.Integer({ description: 'CID' }),
    created_at: iso('Sent'),
    closed_at: nullable(iso('Completed, declined or withdrawn')),
    closed_message: Type.Optional(Type.String({ description: 'From whoever closed it' })),
    division_api: nullable(
      Type.Object(
        { state: stringEnum(['pending', 'sent', 'refused'] as const), error: Type.Optional(Type.String()) },
        { additionalProperties: false, description: "The division API's request this task caused (§22); null while none is configured" },
      ),
    ),
  },
  { additionalProperties: false, title: 'Task' },
);
export type Task = Static<typeof Task>;

const TaskList = Type.Object({ data: Type.Array(Task) }, { additionalProperties: false });
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const errors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ValidationErrorBody };
const idOf = (description: string) => Type.Union([cid(description), Type.String({ pattern: '^[0-9]{1,10}$' })]);

export const listTasks = {
  tags: ['Tasks'],
  operationId: 'listTasks',
  summary: 'List tasks',
  querystring: Type.Object(
    {
      assignee_id: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CID })),
      status: Type.Optional(stringEnum(TASK_STATUSES)),
      training_id: Type.Optional(Type.Integer({ minimum: 1, maximum: 2_147_483_647 })),
    },
    { additionalProperties: false },
  ),
  response: { 200: TaskList, 400: ErrorBody, 401: ErrorBody },
};

export const getTask = {
  tags: ['Tasks'],
  operationId: 'getTask',
  summary: 'One task',
  params: IdParams,
  response: { 200: Task, 401: ErrorBody, 404: ErrorBody },
};

export const createTask = {
  tags: ['Tasks'],
  operationId: 'createTask',
  summary: 'Send a task to a Moderator or Administrator',
  description:
    'A key is a trusted integration acting for the member named in `creator_id`, who must be allowed to create the task: a mentor of ' +
    "the training or a Moderator/Administrator of its area. The assignee must hold Moderator or Administrator in the training's area " +
    '(or be a division-wide Administrator; a custom task without a training: in any area); anyone else is 422 naming why. ' +
    'A `solo_endorsement` task needs `theory_exam_passed: true`: the creator confirms that the student has passed the theoretical exam.',
  body: Type.Object(
    {
      type: Type.String({ description: TASK_TYPES.join(', ') }),
      subject_user_id: idOf('CID of the student'),
      training_id: Type.Optional(
        nullable(Type.Union([Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), Type.String({ pattern: '^[0-9]{1,10}$' })])),
      ),
      rating: Type.Optional(nullable(Type.String({ maxLength: 10, description: 'rating_upgrade and theory_exam: a rating code' }))),
      message: Type.Optional(nullable(Type.String({ maxLength: 4000, description: `1–${TASK_TEXT_MAX} characters; required for custom` }))),
      assignee_id: idOf('CID of the Moderator or Administrator asked'),
      creator_id: idOf('CID of the member sending it'),
      theory_exam_passed: Type.Optional(
        Type.Union([Type.Boolean(), Type.String()], {
          description: 'solo_endorsement: true confirms that the student has passed the theoretical exam (required)',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  response: { 201: Task, ...errors },
};

export const closeTask = {
  tags: ['Tasks'],
  operationId: 'closeTask',
  summary: 'Complete, decline or withdraw a task',
  description:
    '`actor_id` is the assignee for completed and declined, the creator for withdrawn (only while pending); anyone else is 403, a ' +
    'closed task 409. Of two closings at once, one wins and the other is 409.',
  params: IdParams,
  body: Type.Object(
    {
      status: stringEnum(CLOSING_STATUSES),
      closed_message: Type.Optional(nullable(Type.String({ maxLength: 4000, description: `1–${TASK_TEXT_MAX} characters` }))),
      actor_id: idOf('CID of the member closing it'),
    },
    { additionalProperties: false },
  ),
  response: { 200: Task, ...errors },
};
