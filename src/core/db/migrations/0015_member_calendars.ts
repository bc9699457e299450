import { type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// Each member's own calendar feed (/calendar/member/<secret>.ics): at most one address per member.
// The secret is kept as it is, not hashed: "My bookings" shows the address to its owner every time,
// and it opens nothing but the owner's own bookings. Renewing replaces it, which ends the old one.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('member_calendars')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('secret', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
}
