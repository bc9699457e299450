import { sql, type Kysely } from 'kysely';

// How far the backfill of members' ATC history has come, per member: a stopped backfill resumes
// at the next page of the member it was reading, and skips the members already done.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE TABLE activity_backfill (
    cid bigint PRIMARY KEY,
    next_offset integer NOT NULL,
    done_at bigint
  )`.execute(db);
}
