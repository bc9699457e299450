import { Type, type TSchema } from 'typebox';
import { ErrorBody } from '../common.js';

const Timestamp = Type.String({
  format: 'date-time',
  examples: ['2024-02-04T15:18:44.000000Z'],
  description: 'ISO 8601 UTC with microseconds',
});
const Areas = Type.Array(Type.String(), { description: 'Area names' });

export const DEPRECATION_NOTE =
  'Deprecated: use GET /api/users instead. Answers carry `Deprecation: true` and ' + '`Link: </api/users>; rel="successor-version"`.';

function deprecatedRoute(summary: string, description: string, data: TSchema) {
  return {
    tags: ['deprecated'],
    summary,
    description: `${description}\n\n${DEPRECATION_NOTE}`,
    deprecated: true,
    response: {
      200: Type.Object({ data }, { additionalProperties: false }),
      400: ErrorBody,
      401: ErrorBody,
      429: ErrorBody,
    },
  };
}

const RoleHolder = Type.Object({ id: Type.Integer({ description: 'User ID' }), fir: Areas }, { additionalProperties: false });

export const listRoles = deprecatedRoute(
  'Users with roles (deprecated)',
  'Mentors, moderators and administrators with the areas they hold the role in, each list sorted by user ID. ' +
    'Replaced by `GET /api/users?include=roles`.',
  Type.Object(
    { mentors: Type.Array(RoleHolder), moderators: Type.Array(RoleHolder), admins: Type.Array(RoleHolder) },
    { additionalProperties: false },
  ),
);

export const listMasc = deprecatedRoute(
  'Facility (Major Airport / Special Center) endorsement holders (deprecated)',
  'Users holding at least one active facility endorsement, with the facility names, sorted by user ID. ' +
    'Replaced by `GET /api/users?include=endorsements` (`endorsements.facility`).',
  Type.Array(
    Type.Object(
      {
        user_id: Type.Integer(),
        user_atc_active: Type.Boolean({ description: 'Active in at least one area' }),
        ratings: Type.Array(Type.String(), { description: 'Names of the endorsed facilities', examples: [['T1 EKCH TWR']] }),
      },
      { additionalProperties: false },
    ),
  ),
);

function trainingEndorsements(kind: 'SOLO' | 'S1') {
  return Type.Array(
    Type.Object(
      {
        user_id: Type.Integer(),
        type: Type.Literal(kind),
        valid_from: Timestamp,
        valid_to: Type.Union([Timestamp, Type.Null()]),
        expired: Type.Boolean({ description: 'valid_to has passed' }),
        revoked: Type.Boolean(),
        positions: Type.Array(Type.String(), { description: 'Callsigns' }),
      },
      { additionalProperties: false },
    ),
  );
}

const recentNote =
  'Active endorsements plus those that expired or were revoked within the last 14 days, sorted by user ID and valid_from. ' +
  'Replaced by `GET /api/users?include=endorsements` (`endorsements.training`).';
export const listSolo = deprecatedRoute('Solo training endorsements (deprecated)', recentNote, trainingEndorsements('SOLO'));
export const listS1 = deprecatedRoute('S1 training endorsements (deprecated)', recentNote, trainingEndorsements('S1'));

export const listExaminers = deprecatedRoute(
  'Examiners per area (deprecated)',
  'Every area (sorted by name) with the holders of an active examiner endorsement for it, sorted by user ID; ' +
    "`rating` is the endorsement's rating. Replaced by `GET /api/users?include=endorsements` (`endorsements.examiner`).",
  Type.Array(
    Type.Object(
      {
        area: Type.String(),
        examiners: Type.Array(
          Type.Object(
            { user_id: Type.Integer(), first_name: Type.Union([Type.String(), Type.Null()]), rating: Type.String() },
            { additionalProperties: false },
          ),
        ),
      },
      { additionalProperties: false },
    ),
  ),
);

export const listVisiting = deprecatedRoute(
  'Visiting controllers (deprecated)',
  "One entry per active visiting endorsement, sorted by user ID and valid_from; `rating` is the endorsement's rating. " +
    "For each endorsed area, `maes` lists the user's active facility endorsements that positions of that area require. " +
    'Replaced by `GET /api/users?include=endorsements` (`endorsements.visiting`).',
  Type.Array(
    Type.Object(
      {
        user_id: Type.Integer(),
        first_name: Type.Union([Type.String(), Type.Null()]),
        rating: Type.String(),
        areas: Type.Array(Type.Object({ name: Type.String(), maes: Type.Array(Type.String()) }, { additionalProperties: false })),
      },
      { additionalProperties: false },
    ),
  ),
);
