// Members' sessions, sign-ins under way and the generated cookie secret (migration 0014).
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import type { NetworkProfile } from './domain.js';

/** A live session and its member, as one request needs them. */
export interface SessionRow {
  id_hash: string;
  csrf_secret: string;
  last_seen_at: number;
  user_id: number;
  first_name: string | null;
  last_name: string | null;
  rating: number;
  /** Whether the user holds any staff role (contract §17: the pages' "Staff" link); 0/1 or a boolean by dialect. */
  holds_role: unknown;
  /** The look the member chose (contract §24); null: follow the device. */
  look: string | null;
}

/** A user's columns the network's profile sets. */
export interface ProfileColumns {
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  rating: number;
  region: string | null;
  division: string | null;
  subdivision: string | null;
}

export function sessionsRepository(db: Kysely<Database>) {
  return {
    /** The session with this id hash and its user, whether or not it has expired. */
    find(idHash: string): Promise<SessionRow | undefined> {
      return db
        .selectFrom('sessions as s')
        .innerJoin('users as u', 'u.id', 's.user_id')
        .leftJoin('member_settings as ms', 'ms.user_id', 's.user_id')
        .select(['s.id_hash', 's.csrf_secret', 's.last_seen_at', 's.user_id', 'u.first_name', 'u.last_name', 'u.rating', 'ms.look'])
        .select((eb) => eb.exists(eb.selectFrom('roles').select('roles.id').whereRef('roles.user_id', '=', 's.user_id')).as('holds_role'))
        .where('s.id_hash', '=', idHash)
        .executeTakeFirst();
    },

    /** Records that a session was used; one that is already gone stays gone. */
    async touch(idHash: string, at: number): Promise<void> {
      await db.updateTable('sessions').set({ last_seen_at: at }).where('id_hash', '=', idHash).where('last_seen_at', '<', at).execute();
    },

    async delete(idHash: string): Promise<void> {
      await db.deleteFrom('sessions').where('id_hash', '=', idHash).execute();
    },

    /** Deletes sessions idle since before the instant; returns how many. */
    async deleteIdle(before: number): Promise<number> {
      const r = await db.deleteFrom('sessions').where('last_seen_at', '<', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    /** Keeps a sign-in under way, and drops the ones older than `staleBefore` nobody came back for. */
    async saveLoginState(row: Database['login_states'], staleBefore: number): Promise<void> {
      await db.deleteFrom('login_states').where('created_at', '<', staleBefore).execute();
      await db.insertInto('login_states').values(row).execute();
    },

    /** Consumes a sign-in under way: deletes it and returns it, in one statement, so that two uses of the same state cannot both get it. */
    consumeLoginState(stateHash: string): Promise<Database['login_states'] | undefined> {
      return db.deleteFrom('login_states').where('state_hash', '=', stateHash).returningAll().executeTakeFirst();
    },

    /** A setting's value; the first writer of a key wins, later ones read what it wrote. */
    async settingOrInsert(key: string, value: string): Promise<string> {
      await db
        .insertInto('settings')
        .values({ key, value })
        .onConflict((oc) => oc.column('key').doNothing())
        .execute();
      const row = await db.selectFrom('settings').select('value').where('key', '=', key).executeTakeFirstOrThrow();
      return row.value;
    },

    profileOf: (cid: number) => profileOf(db, cid),
    upsertSignedInUser: (p: NetworkProfile, at: number) => upsertSignedInUser(db, p, at),
    insertSession: (row: Database['sessions']) => insertSession(db, row),
  };
}

export type SessionsRepository = ReturnType<typeof sessionsRepository>;

/** In a sign-in's transaction: the user's profile columns before the sign-in, if they existed. */
function profileOf(trx: Kysely<Database>, cid: number): Promise<ProfileColumns | undefined> {
  return trx
    .selectFrom('users')
    .select(['first_name', 'last_name', 'email', 'rating', 'region', 'division', 'subdivision'])
    .where('id', '=', cid)
    .executeTakeFirst();
}

/** In a sign-in's transaction: creates or updates the user from the network's profile. */
async function upsertSignedInUser(trx: Kysely<Database>, p: NetworkProfile, at: number): Promise<void> {
  const columns: ProfileColumns = {
    first_name: p.firstName,
    last_name: p.lastName,
    email: p.email,
    rating: p.rating,
    region: p.region,
    division: p.division,
    subdivision: p.subdivision,
  };
  await trx
    .insertInto('users')
    .values({ id: p.cid, ...columns, created_at: at, updated_at: at, last_login_at: at })
    // Signing in lifts user:erase's mark (contract §24): the person is back, under their own name.
    .onConflict((oc) => oc.column('id').doUpdateSet({ ...columns, updated_at: at, last_login_at: at, erased_at: null }))
    .execute();
}

/** In a sign-in's transaction: the new session. */
async function insertSession(trx: Kysely<Database>, row: Database['sessions']): Promise<void> {
  await trx.insertInto('sessions').values(row).execute();
}
