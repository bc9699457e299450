import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// How many times a booking changed since it was created: calendar feeds publish it as the
// event's SEQUENCE, which subscribed calendars use to tell a newer copy of an event from an older
// one. Every update and the soft delete add one in the same statement; existing rows start at 0.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`ALTER TABLE bookings ADD COLUMN revision integer NOT NULL DEFAULT 0`.execute(db);
}
