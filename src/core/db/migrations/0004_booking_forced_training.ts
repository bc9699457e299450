import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// Whether a booking's training flag was forced (the booker not qualified for the position)
// rather than chosen with tag 1. An update re-decides forcing for the new booker or position,
// which needs the chosen flag apart from the forced one. Existing rows count as chosen.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`ALTER TABLE bookings ADD COLUMN training_forced integer NOT NULL DEFAULT 0`.execute(db);
}
