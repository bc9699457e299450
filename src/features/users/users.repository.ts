// Rows behind GET /api/users: the selected users, then one set-based query per relation asked
// for (never one per user), each restricted to the users it can concern.
import type { ExpressionBuilder, Kysely, Selectable, SelectQueryBuilder } from 'kysely';
import type { Database, EndorsementType, TrainingsTable } from '../../core/db/schema.js';
import { activeEndorsement } from '../endorsements/predicates.js';
import { atcActiveUsers } from '../activity/predicates.js';
import { openTraining } from '../roles/predicates.js';
import { selectsUsers, type Includes, type Membership } from '../members/domain/index.js';

export interface UsersQuery {
  includes: Includes;
  membership: Membership;
  onlyAtcActive: boolean;
  now: number;
}

export interface UserBaseRow {
  id: number;
  rating: number;
  atc_active: boolean;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  region?: string | null;
  division?: string | null;
  subdivision?: string | null;
}

export interface AreaRow {
  id: number;
  name: string;
}

export interface EndorsementRow {
  id: number;
  user_id: number;
  type: EndorsementType;
  rating: string | null;
  valid_from: number;
  valid_to: number | null;
}

export interface TrainingRow extends Pick<
  Selectable<TrainingsTable>,
  'id' | 'user_id' | 'area_id' | 'type' | 'status' | 'created_at' | 'started_at'
> {
  /** One row per trained rating; null for a training without ratings. */
  rating: number | null;
}

/** Everything GET /api/users needs, each list fetched once for the whole selection. */
export interface UsersData {
  users: UserBaseRow[];
  /** Every area (when roles, activeAreas, endorsements or training are included). */
  areas: AreaRow[];
  /** (user, area) pairs where the user is active. */
  activity: Array<{ user_id: number; area_id: number }>;
  /** Active endorsements, ordered by user, valid_from, id. */
  endorsements: EndorsementRow[];
  endorsementAreas: Array<{ endorsement_id: number; area_id: number }>;
  endorsementPositions: Array<{ endorsement_id: number; callsign: string }>;
  /** Area roles only: a division-wide role is not shown in the users API (contract §17). */
  roles: Array<{ user_id: number; area_id: number; role: string }>;
  /** Open trainings, ordered by user, created_at, id, rating. */
  trainings: TrainingRow[];
  /** The facility names those trainings are for, ordered by training and name. */
  trainingFacilities: Array<{ training_id: number; name: string }>;
}

type Db = Kysely<Database>;
type Eb<T extends keyof Database> = ExpressionBuilder<Database, T>;
// A subquery of user ids from any tables: only its one selected column matters to its users.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type IdSubquery = SelectQueryBuilder<Database, any, { user_id: number }>;

// ---------------------------------------------------------------------------------------------
// Which users: the selection, and which users' rows each relation must fetch.

/** One condition per selecting relation; a user matching any of them is selected. */
function pickers(eb: Eb<'users'>, q: UsersQuery) {
  const { includes, membership } = q;
  const out = [];
  if (includes.allUsers) {
    if (membership.kind === 'subdivisions') out.push(eb('users.subdivision', 'in', membership.subdivisions));
    else if (membership.kind === 'division') out.push(eb('users.division', '=', membership.division));
  }
  if (includes.endorsements) {
    out.push(eb('users.id', 'in', eb.selectFrom('endorsements').select('endorsements.user_id').where(activeEndorsement(q.now))));
  }
  if (includes.roles) out.push(eb('users.id', 'in', eb.selectFrom('roles').select('roles.user_id')));
  if (includes.training) out.push(eb('users.id', 'in', eb.selectFrom('trainings').select('trainings.user_id').where(openTraining)));
  return out;
}

/** The selection as a predicate on `users` (null: every user): the union of the selecting relations, then onlyAtcActive. */
function selectionPredicate(db: Db, q: UsersQuery) {
  const everyone = q.includes.allUsers && q.membership.kind === 'everyone';
  if (everyone && !q.onlyAtcActive) return null;
  return (eb: Eb<'users'>) => {
    const conditions = [];
    if (!everyone) conditions.push(eb.or(pickers(eb, q)));
    if (q.onlyAtcActive) conditions.push(eb('users.id', 'in', atcActiveUsers(db)));
    return eb.and(conditions);
  };
}

/** Which users' rows a relation must fetch (null: all); a selecting relation's own rows need no selection. */
function ownRowsOf(db: Db, q: UsersQuery): IdSubquery | null {
  return q.onlyAtcActive ? atcActiveUsers(db) : null;
}

/** Which users' activity rows to fetch; with allUsers, every row is cheaper than working the selection out again. */
function activityRowsOf(db: Db, q: UsersQuery): IdSubquery | null {
  if (q.includes.allUsers) return null;
  return db
    .selectFrom('users')
    .select('users.id as user_id')
    .where((eb) => eb.or(pickers(eb, q)));
}

// One fetcher per relation. ------------------------------------------------------------------

async function fetchUsers(db: Db, q: UsersQuery): Promise<UserBaseRow[]> {
  const { includes } = q;
  const predicate = selectionPredicate(db, q);
  const rows = await db
    .selectFrom('users')
    .select((eb) => ['users.id', 'users.rating', eb('users.id', 'in', atcActiveUsers(db)).as('atc_active')])
    .$if(includes.email, (qb) => qb.select('users.email'))
    .$if(includes.name, (qb) => qb.select(['users.first_name', 'users.last_name']))
    .$if(includes.divisions, (qb) => qb.select(['users.region', 'users.division', 'users.subdivision']))
    .$if(predicate !== null, (qb) => qb.where(predicate!))
    .orderBy('users.id')
    .execute();
  // SQLite returns IN as 0/1, PostgreSQL as a boolean: set in place, not copied per row.
  for (const r of rows) (r as { atc_active: unknown }).atc_active = Boolean(r.atc_active);
  return rows as UserBaseRow[];
}

function fetchAreas(db: Db): Promise<AreaRow[]> {
  return db.selectFrom('areas').select(['areas.id', 'areas.name']).execute();
}

function fetchActivity(db: Db, q: UsersQuery): Promise<UsersData['activity']> {
  const users = activityRowsOf(db, q);
  return db
    .selectFrom('user_area_activity')
    .select(['user_area_activity.user_id', 'user_area_activity.area_id'])
    .where('user_area_activity.active', '=', 1)
    .$if(users !== null, (qb) => qb.where('user_area_activity.user_id', 'in', users!))
    .execute();
}

async function fetchEndorsements(
  db: Db,
  now: number,
  ownRows: IdSubquery | null,
): Promise<Pick<UsersData, 'endorsements' | 'endorsementAreas' | 'endorsementPositions'>> {
  // Shared by queries rooted at endorsements and at its link tables (joined to it).
  const activeFor = (eb: Eb<'endorsements'>) =>
    eb.and([activeEndorsement(now), ...(ownRows ? [eb('endorsements.user_id', 'in', ownRows)] : [])]);
  const endorsements = await db
    .selectFrom('endorsements')
    .select([
      'endorsements.id',
      'endorsements.user_id',
      'endorsements.type',
      'endorsements.rating',
      'endorsements.valid_from',
      'endorsements.valid_to',
    ])
    .where(activeFor)
    .orderBy('endorsements.user_id')
    .orderBy('endorsements.valid_from')
    .orderBy('endorsements.id')
    .execute();
  const endorsementAreas = await db
    .selectFrom('endorsement_areas')
    .innerJoin('endorsements', 'endorsements.id', 'endorsement_areas.endorsement_id')
    .select(['endorsement_areas.endorsement_id', 'endorsement_areas.area_id'])
    .where(activeFor)
    .execute();
  const endorsementPositions = await db
    .selectFrom('endorsement_positions')
    .innerJoin('endorsements', 'endorsements.id', 'endorsement_positions.endorsement_id')
    .innerJoin('positions', 'positions.id', 'endorsement_positions.position_id')
    .select(['endorsement_positions.endorsement_id', 'positions.callsign'])
    .where(activeFor)
    .execute();
  return { endorsements, endorsementAreas, endorsementPositions };
}

function fetchRoles(db: Db, ownRows: IdSubquery | null): Promise<UsersData['roles']> {
  return db
    .selectFrom('roles')
    .select(['roles.user_id', 'roles.area_id', 'roles.role'])
    .where('roles.area_id', 'is not', null)
    .$if(ownRows !== null, (qb) => qb.where('roles.user_id', 'in', ownRows!))
    .$narrowType<{ area_id: number }>()
    .execute();
}

function fetchTrainings(db: Db, ownRows: IdSubquery | null): Promise<TrainingRow[]> {
  return db
    .selectFrom('trainings')
    .leftJoin('training_ratings', 'training_ratings.training_id', 'trainings.id')
    .select([
      'trainings.id',
      'trainings.user_id',
      'trainings.area_id',
      'trainings.type',
      'trainings.status',
      'trainings.created_at',
      'trainings.started_at',
      'training_ratings.rating',
    ])
    .where(openTraining)
    .$if(ownRows !== null, (qb) => qb.where('trainings.user_id', 'in', ownRows!))
    .orderBy('trainings.user_id')
    .orderBy('trainings.created_at')
    .orderBy('trainings.id')
    .orderBy('training_ratings.rating')
    .execute();
}

function fetchTrainingFacilities(db: Db, ownRows: IdSubquery | null): Promise<UsersData['trainingFacilities']> {
  return db
    .selectFrom('training_facilities')
    .innerJoin('trainings', 'trainings.id', 'training_facilities.training_id')
    .select(['training_facilities.training_id', 'training_facilities.name'])
    .where(openTraining)
    .$if(ownRows !== null, (qb) => qb.where('trainings.user_id', 'in', ownRows!))
    .orderBy('training_facilities.training_id')
    .orderBy('training_facilities.name')
    .execute();
}

/** Every relation the query includes, for the users it selects; nothing more when none is selected. */
async function listForApi(db: Db, q: UsersQuery): Promise<UsersData> {
  const { includes } = q;
  const data: UsersData = {
    users: selectsUsers(includes) ? await fetchUsers(db, q) : [],
    areas: [],
    activity: [],
    endorsements: [],
    endorsementAreas: [],
    endorsementPositions: [],
    roles: [],
    trainings: [],
    trainingFacilities: [],
  };
  if (data.users.length === 0) return data;
  const ownRows = ownRowsOf(db, q);
  if (includes.roles || includes.activeAreas || includes.endorsements || includes.training) data.areas = await fetchAreas(db);
  if (includes.activeAreas) data.activity = await fetchActivity(db, q);
  if (includes.endorsements) Object.assign(data, await fetchEndorsements(db, q.now, ownRows));
  if (includes.roles) data.roles = await fetchRoles(db, ownRows);
  if (includes.training) {
    data.trainings = await fetchTrainings(db, ownRows);
    data.trainingFacilities = await fetchTrainingFacilities(db, ownRows);
  }
  return data;
}

export function usersRepository(db: Db) {
  return {
    listForApi: (q: UsersQuery) => listForApi(db, q),
    /** Every user's division and subdivision, by id (whom the backfill reads). */
    divisions: () => db.selectFrom('users').select(['id', 'division', 'subdivision']).orderBy('id').execute(),
  };
}

export type UsersRepository = ReturnType<typeof usersRepository>;
