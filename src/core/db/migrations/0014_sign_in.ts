import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// Members sign in with the network's account (docs/sign-in.md). Sessions are kept here, not in
// the cookie, so that any instance knows them and signing out ends one everywhere. Only a hash
// of a session's id is stored: a copy of the database does not hand out live sessions.
//
// login_states holds a sign-in under way (the OAuth2 `state`, also hashed, the PKCE verifier and
// where to go afterwards) for at most ten minutes; it is deleted when used. settings holds the
// generated SESSION_SECRET when the operator sets none.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`ALTER TABLE users ADD COLUMN last_login_at bigint`.execute(db);

  await db.schema
    .createTable('sessions')
    .addColumn('id_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('csrf_secret', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  await db.schema.createIndex('sessions_last_seen_idx').on('sessions').column('last_seen_at').execute();

  await db.schema
    .createTable('login_states')
    .addColumn('state_hash', 'text', (c) => c.primaryKey())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('next', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('login_states_created_idx').on('login_states').column('created_at').execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
