import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// Examinations planned, then graded (contract §20): the result is null until the examination is
// graded, it may have a start time ("HH:MM" UTC), and one or two examiners, in order. examiner_id
// stays the first examiner (§18's field); every examination of before has that one examiner.
// A cancelled planned examination is deleted (its examiners with it); the timeline keeps it.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const start = sql`start text CHECK (start IS NULL OR (length(start) = 5 AND substr(start, 3, 1) = ':'))`;
  if (dialect === 'postgres') {
    await sql`ALTER TABLE training_examinations ALTER COLUMN result DROP NOT NULL`.execute(db);
    await sql`ALTER TABLE training_examinations ADD COLUMN ${start}`.execute(db);
    await sql`ALTER TABLE training_examinations ADD COLUMN updated_at bigint`.execute(db);
    await sql`UPDATE training_examinations SET updated_at = created_at`.execute(db);
    await sql`ALTER TABLE training_examinations ALTER COLUMN updated_at SET NOT NULL`.execute(db);
  } else {
    // SQLite cannot drop a NOT NULL: the table is made again with every row and id.
    await sql`CREATE TABLE training_examinations_next (
      id integer PRIMARY KEY AUTOINCREMENT,
      training_id integer NOT NULL REFERENCES trainings (id) ON DELETE CASCADE,
      examiner_id bigint NOT NULL,
      examination_date text NOT NULL,
      position text NOT NULL,
      result text CHECK (result IN ('PASSED', 'FAILED', 'INCOMPLETE', 'POSTPONED')),
      created_at bigint NOT NULL,
      ${start},
      updated_at bigint NOT NULL
    )`.execute(db);
    await sql`INSERT INTO training_examinations_next
      (id, training_id, examiner_id, examination_date, position, result, created_at, start, updated_at)
      SELECT id, training_id, examiner_id, examination_date, position, result, created_at, NULL, created_at FROM training_examinations`.execute(
      db,
    );
    await sql`DROP TABLE training_examinations`.execute(db);
    await sql`ALTER TABLE training_examinations_next RENAME TO training_examinations`.execute(db);
    await sql`CREATE INDEX training_examinations_training_idx ON training_examinations (training_id)`.execute(db);
    await sql`CREATE INDEX training_examinations_date_idx ON training_examinations (examination_date)`.execute(db);
  }

  // The examiners of each examination: the first (ordinal 1) is examiner_id, a second is optional.
  await sql`CREATE TABLE training_examiners (
    examination_id integer NOT NULL REFERENCES training_examinations (id) ON DELETE CASCADE,
    ordinal integer NOT NULL CHECK (ordinal IN (1, 2)),
    user_id bigint NOT NULL,
    PRIMARY KEY (examination_id, ordinal),
    UNIQUE (examination_id, user_id)
  )`.execute(db);
  await sql`CREATE INDEX training_examiners_user_idx ON training_examiners (user_id)`.execute(db);
  await sql`INSERT INTO training_examiners (examination_id, ordinal, user_id) SELECT id, 1, examiner_id FROM training_examinations`.execute(
    db,
  );
}
