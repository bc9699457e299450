import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// The overlap guard asks: live bookings of this position that end after the new start and
// start before the new end. Indexing live bookings by (position, end) makes that a short range
// scan over the position's future bookings, however many past ones pile up.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`DROP INDEX IF EXISTS bookings_position_idx`.execute(db);
  await sql`CREATE INDEX bookings_live_position_end_idx ON bookings (position_id, time_end) WHERE deleted = 0`.execute(db);
}
