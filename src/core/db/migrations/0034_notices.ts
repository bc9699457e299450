import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// Members' settings and notifications (contract §24). A member's look and their choice per kind of
// mail are kept only when they saved them: no row means the defaults. Each notification is sent
// once per key (notices_sent): the key's insert commits with its mail, so a restart or a second
// instance finds it and sends nothing again. users.erased_at marks a person pseudonymised by
// user:erase: the roster sync and the data feed leave their name alone until they sign in again.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`CREATE TABLE member_settings (
    user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    look text NOT NULL DEFAULT 'device' CHECK (look IN ('device', 'light', 'dark')),
    updated_at bigint NOT NULL
  )`.execute(db);
  await sql`CREATE TABLE mail_choices (
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    kind text NOT NULL,
    enabled integer NOT NULL CHECK (enabled IN (0, 1)),
    PRIMARY KEY (user_id, kind)
  )`.execute(db);
  await sql`CREATE TABLE notices_sent (
    key text PRIMARY KEY,
    user_id bigint,
    sent_at bigint NOT NULL
  )`.execute(db);
  await sql`CREATE INDEX notices_sent_user_idx ON notices_sent (user_id)`.execute(db);
  await sql`ALTER TABLE users ADD COLUMN erased_at bigint`.execute(db);
}
