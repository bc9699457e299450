import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// A booking change writes its event and nothing else: the webhook deliveries and network pushes
// it causes are derived from the outbox afterwards, in batches, by whichever process delivers
// them. Each subscription keeps how far its deliveries have been queued (fanned_out_seq), the
// network sync how far its pushes have been (outbox_cursors 'network'), and an event says whether
// it is still to be pushed to the network (network_push: a change made through the API with sync configured).
// Everything written before this migration already has its deliveries and pushes, so every
// cursor starts at the last event.
//
// Also: SQLite's overlap trigger on UPDATE now fires only when a column it checks changes, not
// when the network's id of a booking is recorded.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const last = sql`(SELECT COALESCE(MAX(seq), 0) FROM events)`;
  await sql`ALTER TABLE events ADD COLUMN network_push integer NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE webhooks ADD COLUMN fanned_out_seq bigint NOT NULL DEFAULT 0`.execute(db);
  await sql`UPDATE webhooks SET fanned_out_seq = ${last}`.execute(db);
  await sql`CREATE TABLE outbox_cursors (name text PRIMARY KEY, seq bigint NOT NULL)`.execute(db);
  await sql`INSERT INTO outbox_cursors (name, seq) SELECT 'network', ${last}`.execute(db);

  if (dialect === 'sqlite') {
    await sql`DROP TRIGGER bookings_no_overlap_update`.execute(db);
    await sql`CREATE TRIGGER bookings_no_overlap_update BEFORE UPDATE OF position_id, time_start, time_end, deleted ON bookings
           WHEN NEW.deleted = 0 AND EXISTS (
             SELECT 1 FROM bookings b WHERE b.position_id = NEW.position_id AND b.deleted = 0
               AND b.id IS NOT NEW.id AND b.time_start < NEW.time_end AND NEW.time_start < b.time_end)
           BEGIN SELECT RAISE(ABORT, 'bookings_no_overlap'); END`.execute(db);
  }
}
