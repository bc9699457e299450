import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// What each booking owes the network's ATC bookings service. One row per booking, holding the
// booking's current state to reconcile rather than a queue of operations: a change bumps
// `version`, a push that finishes after a newer change leaves the row pending, and claims of the
// one row keep the pushes of one booking in order.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('network_pushes')
    .addColumn('booking_id', 'integer', (c) => c.primaryKey().references('bookings.id').onDelete('cascade'))
    // pending | done | refused
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', 'bigint', (c) => c.notNull())
    .addColumn('lease_until', 'bigint')
    .addColumn('lease_owner', 'text')
    // The body of a POST whose response was not seen: it may have reached the network.
    .addColumn('posted', 'text')
    .addColumn('last_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await sql`CREATE INDEX network_pushes_due_idx ON network_pushes (next_attempt_at) WHERE status = 'pending'`.execute(db);
}
