import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// GET /api/users reads active endorsements in (user, valid_from, id) order. Walking an index
// in that order replaces sorting every active endorsement on each uncached build.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS endorsements_user_from_idx ON endorsements (user_id, valid_from, id)`.execute(db);
}
