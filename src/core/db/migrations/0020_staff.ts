import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// Staff administration (contract §17): a role may be held division-wide (no area; Administrator
// only), an endorsement records who issued it and whether its expiry was published, and a training
// has mentors (a mentor acts on their own trainees).
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const onlyAdministratorDivisionWide = sql`CHECK (area_id IS NOT NULL OR role = 'Administrator')`;
  if (dialect === 'postgres') {
    await sql`ALTER TABLE roles ALTER COLUMN area_id DROP NOT NULL`.execute(db);
    await sql`ALTER TABLE roles ADD CONSTRAINT roles_division_wide ${onlyAdministratorDivisionWide}`.execute(db);
  } else {
    // SQLite cannot drop a NOT NULL: the table is rebuilt (nothing references it).
    await sql`CREATE TABLE roles_new (
      id integer PRIMARY KEY AUTOINCREMENT,
      user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
      area_id integer REFERENCES areas (id) ON DELETE CASCADE,
      role text NOT NULL,
      CONSTRAINT roles_natural_key UNIQUE (user_id, area_id, role),
      CONSTRAINT roles_division_wide ${onlyAdministratorDivisionWide}
    )`.execute(db);
    await sql`INSERT INTO roles_new (id, user_id, area_id, role) SELECT id, user_id, area_id, role FROM roles`.execute(db);
    await sql`DROP TABLE roles`.execute(db);
    await sql`ALTER TABLE roles_new RENAME TO roles`.execute(db);
  }
  // A unique constraint lets two NULL areas through: division-wide roles get their own index.
  await sql`CREATE UNIQUE INDEX roles_division_wide_key ON roles (user_id, role) WHERE area_id IS NULL`.execute(db);

  await sql`ALTER TABLE endorsements ADD COLUMN issued_by bigint`.execute(db);
  // When `endorsement.expired` was published; endorsements that ended before this migration count as published.
  await sql`ALTER TABLE endorsements ADD COLUMN expiry_published_at bigint`.execute(db);
  await sql`UPDATE endorsements SET expiry_published_at = valid_to WHERE valid_to IS NOT NULL AND valid_to <= ${Date.now()}`.execute(db);
  await sql`CREATE INDEX endorsements_expiry_idx ON endorsements (valid_to)
    WHERE expiry_published_at IS NULL AND valid_to IS NOT NULL AND revoked = 0`.execute(db);

  await sql`CREATE TABLE training_mentors (
    training_id integer NOT NULL REFERENCES trainings (id) ON DELETE CASCADE,
    user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    PRIMARY KEY (training_id, user_id)
  )`.execute(db);
  await sql`CREATE INDEX training_mentors_user_idx ON training_mentors (user_id)`.execute(db);
}
