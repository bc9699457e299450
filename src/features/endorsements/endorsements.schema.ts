// Endorsements as staff issue them (contract §17) and the schemas of their routes.
import { type Static, Type } from 'typebox';
import { MAX_CID } from '../../core/domain/limits.js';
import { ErrorBody, isoTimestamp, nullable, stringEnum, ValidationErrorBody } from '../../core/web/schema-atoms.js';

const iso = (description: string) => isoTimestamp('2026-12-01T12:00:00.000000Z', description);

export const ENDORSEMENT_TYPES = ['visiting', 'examiner', 'facility', 'solo', 's1'] as const;

export const Endorsement = Type.Object(
  {
    id: Type.Integer({ examples: [7] }),
    user_id: Type.Integer({ description: 'CID of the holder', examples: [1000001] }),
    type: stringEnum(ENDORSEMENT_TYPES),
    rating: nullable(Type.String({ description: 'Rating code (visiting, examiner), facility name (facility), null (solo, s1)' })),
    areas: Type.Array(Type.String(), { description: 'Area names (visiting, examiner)' }),
    positions: Type.Array(Type.String(), { description: 'Callsigns (solo, s1)' }),
    valid_from: iso('Start'),
    valid_to: nullable(iso('End, exclusive; null: no end')),
    revoked: Type.Boolean(),
    revoked_at: nullable(iso('When it was revoked')),
    created_at: iso('When it was recorded'),
    issued_by: nullable(
      Type.Integer({ description: 'CID of the staff member who issued it on the pages; null: the API, the CLI or an import' }),
    ),
  },
  { additionalProperties: false, title: 'Endorsement' },
);
export type Endorsement = Static<typeof Endorsement>;

export const EndorsementList = Type.Object({ data: Type.Array(Endorsement) }, { additionalProperties: false });

export const ENDORSEMENT_ID_PATH = '/api/endorsements/:id(^\\d{1,10}$)';
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, description: 'Endorsement ID' }) });

/** Text a form or JSON may send for a CID. */
const cid = Type.Union([Type.Integer({ minimum: 1, maximum: MAX_CID }), Type.String({ pattern: '^\\d{1,8}$' })], {
  description: 'CID of the holder',
});
/** One name, or a list of them (a form sends one field per value). */
const names = Type.Union([Type.Array(Type.String({ maxLength: 100 }), { maxItems: 100 }), Type.String({ maxLength: 100 })]);
const instant = Type.String({ maxLength: 40, description: 'ISO 8601 date and time, e.g. 2026-12-01T12:00:00Z' });

export const CreateEndorsementBody = Type.Object(
  {
    user_id: cid,
    type: Type.String({ maxLength: 20, description: 'facility, visiting, examiner or solo (s1 is history only)' }),
    rating: Type.Optional(nullable(Type.String({ maxLength: 100 }))),
    areas: Type.Optional(names),
    positions: Type.Optional(names),
    valid_from: Type.Optional(instant),
    valid_to: Type.Optional(nullable(instant)),
  },
  { additionalProperties: false },
);
export type CreateEndorsementBody = Static<typeof CreateEndorsementBody>;

export const UpdateEndorsementBody = Type.Object({ valid_to: nullable(instant) }, { additionalProperties: false });

const writeErrors = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody };

export const listEndorsements = {
  operationId: 'listEndorsements',
  tags: ['endorsements'],
  summary: 'List endorsements',
  description: 'Endorsements of every type, active and inactive unless `active` is given, sorted by id. Needs a key.',
  querystring: Type.Object(
    {
      user_id: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_CID })),
      type: Type.Optional(stringEnum(ENDORSEMENT_TYPES)),
      active: Type.Optional(stringEnum(['true', 'false'] as const)),
    },
    { additionalProperties: false },
  ),
  response: { 200: EndorsementList, 401: ErrorBody, 422: ValidationErrorBody, 429: ErrorBody },
};

export const getEndorsement = {
  operationId: 'getEndorsement',
  tags: ['endorsements'],
  summary: 'Get an endorsement',
  params: IdParams,
  response: { 200: Endorsement, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
};

export const createEndorsement = {
  operationId: 'createEndorsement',
  tags: ['endorsements'],
  summary: 'Issue an endorsement',
  description:
    "Issues a facility, visiting, examiner or solo endorsement under the rules of the division (docs/staff.md). A rule broken is 422 with `errors` per field; an active endorsement in the way is 409 naming it. With the division's hub configured (docs/division-api.md), a solo needs the hub to say the student passed the theory exam of their training's highest rating (422 on `positions` otherwise), and is 502 naming the hub's host when the hub cannot be asked.",
  body: CreateEndorsementBody,
  response: { 201: Endorsement, ...writeErrors, 502: ErrorBody },
};

export const updateEndorsement = {
  operationId: 'updateEndorsement',
  tags: ['endorsements'],
  summary: 'Change when an endorsement ends',
  description: 'A solo endorsement may only be shortened; the new end must be in the future.',
  params: IdParams,
  body: UpdateEndorsementBody,
  response: { 200: Endorsement, ...writeErrors },
};

export const revokeEndorsement = {
  operationId: 'revokeEndorsement',
  tags: ['endorsements'],
  summary: 'Revoke an endorsement',
  description: 'Ends it now. Revoking one that is revoked or has ended is 409.',
  params: IdParams,
  response: { 200: Endorsement, ...writeErrors },
};
