import { sql, type Kysely } from 'kysely';

// The CPT upload to the division's hub (contract §22), once per examination: division_cpt holds
// each examination graded PASSED or FAILED (of a training for S2 or above) from its grading on, with
// when its upload was queued; a row is never queued twice, and the unique `about` of its request
// keeps a second one out even if a row were.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE division_cpt (
    examination_id integer PRIMARY KEY,
    graded_at bigint NOT NULL,
    queued_at bigint
  )`.execute(db);
  // The worker looks for files of the waiting ones every run: only they are indexed.
  await sql`CREATE INDEX division_cpt_waiting_idx ON division_cpt (examination_id) WHERE queued_at IS NULL`.execute(db);
  await sql`CREATE UNIQUE INDEX division_requests_cpt_idx ON division_requests (about) WHERE about LIKE 'cpt:%'`.execute(db);
}
