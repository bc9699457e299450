// The division the staff pages are tested on, over HTTP and in a browser: Ada and Bo in training in
// Denmark (Ada's trainee of the Mentor), an Administrator of the division, a Moderator and a Mentor of
// Denmark, and a member without a role. A test adds what its own assertions read.
import type { Kysely } from 'kysely';
import type { Database } from '../../src/core/db/schema.js';
import { ADA, BO, buildPosition, buildRole, buildTraining, buildUser, type Division } from './factories.js';

export const ADMIN = 1000010;
export const MOD = 1000011;
export const MENTOR = 1000012;
export const PLAIN = 1000013;

/** The staff and the member without a role, as the network's account names them at sign-in. */
export const STAFF_PEOPLE = {
  [ADMIN]: { first: 'Alma', last: 'Andersen', rating: { id: 5, short: 'C1' } },
  [MOD]: { first: 'Mona', last: 'Madsen', rating: { id: 5, short: 'C1' } },
  [MENTOR]: { first: 'Mette', last: 'Mikkelsen', rating: { id: 4, short: 'S3' } },
  [PLAIN]: { first: 'Per', last: 'Poulsen', rating: { id: 3, short: 'S2' } },
} as const;

export const STAFF_USERS = [
  buildUser({ id: ADA, first_name: 'Ada', last_name: 'Lind', rating: 'S2' }),
  buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg', rating: 'S1' }),
  ...Object.entries(STAFF_PEOPLE).map(([id, p]) =>
    buildUser({ id: Number(id), first_name: p.first, last_name: p.last, rating: p.rating.short }),
  ),
];

/**
 * The staff division; each section given is added to the default one, except `positions`, which
 * replaces the default (Kastrup Tower and Approach, Arlanda Tower).
 */
export function buildStaffDivision(more: Partial<Division> = {}): Division {
  return {
    areas: ['Denmark', 'Sweden'],
    users: [...STAFF_USERS, ...(more.users ?? [])],
    positions: more.positions ?? [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP'), buildPosition('ESSA_TWR')],
    roles: [
      buildRole({ user_id: ADMIN, area: null, role: 'Administrator' }),
      buildRole({ user_id: MOD, area: 'Denmark', role: 'Moderator' }),
      buildRole({ user_id: MENTOR, area: 'Denmark', role: 'Mentor' }),
      ...(more.roles ?? []),
    ],
    trainings: [
      buildTraining({ user_id: ADA, status: 2, ratings: ['S3'] }),
      buildTraining({ user_id: BO, status: 1, ratings: ['S2'] }),
      ...(more.trainings ?? []),
    ],
    endorsements: more.endorsements ?? [],
    bookings: more.bookings ?? [],
  };
}

/** Makes the Mentor the mentor of Ada's training, once the division is imported. */
export async function assignAdasMentor(kysely: Kysely<Database>): Promise<void> {
  const ada = await kysely.selectFrom('trainings').select('id').where('user_id', '=', ADA).executeTakeFirstOrThrow();
  await kysely.insertInto('training_mentors').values({ training_id: ada.id, user_id: MENTOR }).execute();
}
