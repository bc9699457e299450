// The deprecated endpoints (docs/api.md): their responses' models, which the deprecated presenters'
// output is typed by, and the routes' schemas.
import { type Static, Type, type TSchema } from 'typebox';
import { ErrorBody, isoTimestamp } from '../../core/web/schema-atoms.js';

const Timestamp = isoTimestamp('2024-02-04T15:18:44.000000Z');
const Areas = Type.Array(Type.String(), { description: 'Area names' });

export const DEPRECATION_NOTE =
  'Deprecated: use GET /api/users instead. Responses carry `Deprecation: true` and ' + '`Link: </api/users>; rel="successor-version"`.';

function deprecatedRoute<T extends TSchema>(operationId: string, summary: string, description: string, data: T) {
  return {
    operationId,
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

export const LegacyRoles = Type.Object(
  { mentors: Type.Array(RoleHolder), moderators: Type.Array(RoleHolder), admins: Type.Array(RoleHolder) },
  { additionalProperties: false },
);
export type LegacyRoles = Static<typeof LegacyRoles>;

export const listRoles = deprecatedRoute(
  'listRoles',
  'Users with roles (deprecated)',
  'Mentors, moderators and administrators with the areas they hold the role in, each list sorted by user ID. ' +
    'Replaced by `GET /api/users?include=roles`.',
  LegacyRoles,
);

export const FacilityHolder = Type.Object(
  {
    user_id: Type.Integer(),
    user_atc_active: Type.Boolean({ description: 'Active in at least one area' }),
    ratings: Type.Array(Type.String(), { description: 'Names of the endorsed facilities', examples: [['T1 EKCH TWR']] }),
  },
  { additionalProperties: false },
);
export type FacilityHolder = Static<typeof FacilityHolder>;

export const listMasc = deprecatedRoute(
  'listMascEndorsements',
  'Facility (Major Airport / Special Center) endorsement holders (deprecated)',
  'Users holding at least one active facility endorsement, with the facility names, sorted by user ID. ' +
    'Replaced by `GET /api/users?include=endorsements` (`endorsements.facility`).',
  Type.Array(FacilityHolder),
);

/** A solo or S1 endorsement, `type` named as the system that first published these lists named it. */
export const LegacyTrainingEndorsement = <K extends 'SOLO' | 'S1'>(kind: K) =>
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
  );
export type LegacyTrainingEndorsement<K extends 'SOLO' | 'S1'> = Static<ReturnType<typeof LegacyTrainingEndorsement<K>>>;

const recentNote =
  'Active endorsements plus those that expired or were revoked within the last 14 days, sorted by user ID and valid_from. ' +
  'Replaced by `GET /api/users?include=endorsements` (`endorsements.training`).';
export const listSolo = deprecatedRoute(
  'listSoloEndorsements',
  'Solo training endorsements (deprecated)',
  recentNote,
  Type.Array(LegacyTrainingEndorsement('SOLO')),
);
export const listS1 = deprecatedRoute(
  'listS1Endorsements',
  'S1 training endorsements (deprecated)',
  recentNote,
  Type.Array(LegacyTrainingEndorsement('S1')),
);

export const ExaminerArea = Type.Object(
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
);
export type ExaminerArea = Static<typeof ExaminerArea>;

export const listExaminers = deprecatedRoute(
  'listExaminerEndorsements',
  'Examiners per area (deprecated)',
  'Every area (sorted by name) with the holders of an active examiner endorsement for it, sorted by user ID; ' +
    "`rating` is the endorsement's rating. Replaced by `GET /api/users?include=endorsements` (`endorsements.examiner`).",
  Type.Array(ExaminerArea),
);

export const VisitingEndorsement = Type.Object(
  {
    user_id: Type.Integer(),
    first_name: Type.Union([Type.String(), Type.Null()]),
    rating: Type.String(),
    areas: Type.Array(Type.Object({ name: Type.String(), maes: Type.Array(Type.String()) }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);
export type VisitingEndorsement = Static<typeof VisitingEndorsement>;

export const listVisiting = deprecatedRoute(
  'listVisitingEndorsements',
  'Visiting controllers (deprecated)',
  "One entry per active visiting endorsement, sorted by user ID and valid_from; `rating` is the endorsement's rating. " +
    "For each endorsed area, `maes` lists the user's active facility endorsements that positions of that area require. " +
    'Replaced by `GET /api/users?include=endorsements` (`endorsements.visiting`).',
  Type.Array(VisitingEndorsement),
);
