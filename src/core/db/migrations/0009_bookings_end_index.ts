import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// The bookings from now on (the public list with `from`, the calendar feed, the schedule page)
// are found by their end: with years of past bookings kept, walking the list index from the
// first booking ever would read them all. Shaped like bookings_list_idx (deleted first), so that
// SQLite prefers it for `time_end > ?` even without statistics.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`CREATE INDEX IF NOT EXISTS bookings_end_idx ON bookings (deleted, time_end)`.execute(db);
}
