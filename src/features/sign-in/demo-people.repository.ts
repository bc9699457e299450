// The demo sign-in's people (npm run demo): one demo person per kind of user, found in the demo
// division the database holds.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import type { ProfileColumns } from './sessions.repository.js';

export interface DemoPersonRow extends ProfileColumns {
  id: number;
  /** The role that makes them the example (null: a student), and in how many areas they hold it. */
  role: string | null;
  areas: number;
}

const PROFILE = ['users.id', 'first_name', 'last_name', 'email', 'rating', 'region', 'division', 'subdivision'] as const;

/** The holder of `role` in the most areas (then the lowest CID), with their profile. */
async function holderOf(db: Kysely<Database>, role: string): Promise<DemoPersonRow | null> {
  const row = await db
    .selectFrom('roles')
    .innerJoin('users', 'users.id', 'roles.user_id')
    .select([...PROFILE, 'roles.role'])
    .select((eb) => eb.fn.countAll<number | string>().as('areas'))
    .where('roles.role', '=', role)
    .groupBy([...PROFILE, 'roles.role'])
    .orderBy('areas', 'desc')
    .orderBy('users.id')
    .limit(1)
    .executeTakeFirst();
  return row ? { ...row, areas: Number(row.areas) } : null;
}

/** The Mentor mentoring the most open trainings (a mentor with trainees to look at), then the lowest CID. */
async function mentor(db: Kysely<Database>): Promise<DemoPersonRow | null> {
  const row = await db
    .selectFrom('training_mentors')
    .innerJoin('trainings', 'trainings.id', 'training_mentors.training_id')
    .innerJoin('users', 'users.id', 'training_mentors.user_id')
    .select(PROFILE)
    .select((eb) => eb.fn.countAll<number | string>().as('areas'))
    .where('trainings.closed_at', 'is', null)
    .where((eb) =>
      eb.exists(eb.selectFrom('roles').select('roles.id').whereRef('roles.user_id', '=', 'users.id').where('roles.role', '=', 'Mentor')),
    )
    .groupBy(PROFILE)
    .orderBy('areas', 'desc')
    .orderBy('users.id')
    .limit(1)
    .executeTakeFirst();
  return row ? { ...row, role: 'Mentor', areas: Number(row.areas) } : holderOf(db, 'Mentor');
}

/** A member with an open training and no staff role (the lowest CID). */
async function student(db: Kysely<Database>): Promise<DemoPersonRow | null> {
  const row = await db
    .selectFrom('users')
    .innerJoin('trainings', 'trainings.user_id', 'users.id')
    .select(PROFILE)
    .where('trainings.closed_at', 'is', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('roles').select('roles.id').whereRef('roles.user_id', '=', 'users.id'))))
    .orderBy('users.id')
    .limit(1)
    .executeTakeFirst();
  return row ? { ...row, role: null, areas: 0 } : null;
}

async function demoPeople(db: Kysely<Database>): Promise<DemoPersonRow[]> {
  const found = [await student(db), await mentor(db), await holderOf(db, 'Moderator'), await holderOf(db, 'Administrator')];
  return found.filter((p): p is DemoPersonRow => p !== null);
}

export function demoPeopleRepository(db: Kysely<Database>) {
  return { list: () => demoPeople(db) };
}

export type DemoPeopleRepository = ReturnType<typeof demoPeopleRepository>;
