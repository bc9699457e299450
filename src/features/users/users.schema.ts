// The users of GET /api/users: the models the presenter's output is typed by, and the route's schema.
import { type Static, Type } from 'typebox';
import { ErrorBody, stringEnum, ValidationErrorBody } from '../../core/web/schema-atoms.js';
import { FIELD_RELATIONS, ONLY_ATC_ACTIVE_VALUES, SELECTING_RELATIONS } from '../members/domain/index.js';
import { TRAINING_STATUS_DESCRIPTIONS } from '../members/domain/training-status.js';
import { RATING_CODES } from '../members/domain/ratings.js';

const Timestamp = Type.String({
  format: 'date-time',
  examples: ['2024-02-04T15:18:44.000000Z'],
  description: 'ISO 8601 UTC with microseconds',
});
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const RatingCode = Type.String({ enum: RATING_CODES, description: 'Rating code' });

const Dated = {
  valid_from: Timestamp,
  valid_to: Type.Union([Timestamp, Type.Null()], { description: 'Null: no end' }),
};

export const AreaEndorsement = Type.Object(
  { ...Dated, rating: RatingCode, areas: Type.Array(Type.String(), { description: 'Area names' }) },
  { additionalProperties: false },
);
export type AreaEndorsement = Static<typeof AreaEndorsement>;

export const FacilityEndorsement = Type.Object(
  { ...Dated, rating: Type.String({ description: 'Name of the endorsed facility/position', examples: ['T1 EKCH TWR'] }) },
  { additionalProperties: false },
);
export type FacilityEndorsement = Static<typeof FacilityEndorsement>;

export const TrainingEndorsement = Type.Object(
  { ...Dated, positions: Type.Array(Type.String(), { description: 'Callsigns' }) },
  { additionalProperties: false },
);
export type TrainingEndorsement = Static<typeof TrainingEndorsement>;

const TrainingEndorsements = Type.Union([Type.Array(TrainingEndorsement), Type.Null()], {
  description: 'Null when the user holds no such active endorsement',
});

export const Endorsements = Type.Object(
  {
    visiting: Type.Array(AreaEndorsement),
    examiner: Type.Array(AreaEndorsement),
    training: Type.Object({ solo: TrainingEndorsements, s1: TrainingEndorsements }, { additionalProperties: false }),
    facility: Type.Optional(Type.Array(FacilityEndorsement, { description: 'Newer variant' })),
    masc: Type.Optional(Type.Array(FacilityEndorsement, { description: 'Older variant: the same list as facility' })),
  },
  {
    additionalProperties: false,
    description:
      'Active endorsements (not revoked, started, not ended), each category ordered by valid_from. Empty categories are []. ' +
      'The newer variant has `facility`, the older `masc` instead.',
  },
);
export type Endorsements = Static<typeof Endorsements>;

const statusList = [...TRAINING_STATUS_DESCRIPTIONS].map(([code, text]) => `${code} ${text}`).join(', ');

export const Training = Type.Object(
  {
    area: Type.String(),
    type: Type.String({ examples: ['Standard'], description: 'Standard, Refresh, Transfer, Fast-track or Familiarisation' }),
    status: Type.Integer({ minimum: 0, description: `Open trainings only (status >= 0). Statuses: ${statusList}` }),
    status_description: Type.String({ examples: ['In queue'] }),
    created_at: Timestamp,
    started_at: NullableTimestamp,
    ratings: Type.Array(RatingCode),
  },
  { additionalProperties: false },
);
export type Training = Static<typeof Training>;

export const User = Type.Object(
  {
    id: Type.Integer({ description: 'User ID (CID)', examples: [10000001] }),
    email: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'With include=email' })),
    first_name: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'With include=name' })),
    last_name: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'With include=name' })),
    rating: RatingCode,
    region: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'With include=divisions' })),
    division: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'With include=divisions' })),
    subdivision: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'With include=divisions' })),
    atc_active: Type.Boolean({ description: 'Active in at least one area' }),
    atc_active_areas: Type.Optional(
      Type.Record(Type.String(), Type.Boolean(), {
        description: 'With include=activeAreas (newer variant only): every area, lower-case name -> active',
      }),
    ),
    endorsements: Type.Optional(Endorsements),
    roles: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.Array(Type.String()), Type.Null()]), {
        description: 'With include=roles: every area (name as stored) -> role names, or null without a role there',
      }),
    ),
    training: Type.Optional(Type.Array(Training, { description: 'With include=training: open trainings' })),
  },
  { additionalProperties: false },
);
export type User = Static<typeof User>;

export const UsersQuery = Type.Object({
  include: Type.Optional(
    Type.Array(Type.String({ maxLength: 100 }), {
      maxItems: 50,
      description:
        `Relations, case-sensitive: ${[...SELECTING_RELATIONS, ...FIELD_RELATIONS].join(', ')}. ` +
        'Accepted as include[]=a&include[]=b, include[0]=a, include=a&include=b or include=a,b.',
      examples: [['allUsers', 'name', 'endorsements']],
    }),
  ),
  onlyAtcActive: Type.Optional(
    stringEnum(ONLY_ATC_ACTIVE_VALUES, { default: 'false', description: 'true/1: only users active in at least one area' }),
  ),
});
export type UsersQuery = Static<typeof UsersQuery>;

export const listUsers = {
  operationId: 'listUsers',
  tags: ['users'],
  summary: 'List users',
  description:
    'Users picked by the selecting relations in `include` (their union: `allUsers` = members of the division, ' +
    '`endorsements` = users with an active endorsement, `roles` = users with a role, `training` = users with an open ' +
    'training), optionally only ATC-active ones, sorted by id. Without a selecting relation the list is empty. ' +
    'Field relations (`name`, `email`, `divisions`, `activeAreas`) add fields; `endorsements`, `roles` and `training` ' +
    "also add their field to every returned user. The `Api-Variant: older|newer` header (or the key's pinned variant) " +
    'selects the variant; in the older one `activeAreas` is not a relation and `masc` replaces `facility`.',
  querystring: UsersQuery,
  headers: Type.Object({
    // Not an enum here: a bad value is 400 (docs/api.md), returned by the handler, not 422.
    'api-variant': Type.Optional(
      Type.String({ description: "`newer` or `older` (anything else is 400); overrides the key's and the server's variant" }),
    ),
  }),
  response: {
    200: Type.Union([Type.Array(User), Type.Object({ data: Type.Array(User) }, { additionalProperties: false })], {
      description:
        'The users: a JSON array; in the Control Center compatibility profile (API_COMPAT=controlcenter, or a key created ' +
        'with --compat controlcenter) the same array in {"data": […]}',
    }),
    400: ErrorBody,
    401: ErrorBody,
    422: ValidationErrorBody,
    429: ErrorBody,
  },
};
