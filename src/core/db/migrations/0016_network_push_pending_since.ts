import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// Since when a booking has been waiting to be pushed to the network: the age of the oldest push still pending is
// what an operator alerts on (a network that refuses every connection keeps pushes pending for
// ever). updated_at cannot tell it: every attempt moves it. Rows pending now take their last
// attempt's time, the best this database knows.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`ALTER TABLE network_pushes ADD COLUMN pending_since bigint`.execute(db);
  await sql`UPDATE network_pushes SET pending_since = updated_at WHERE status = 'pending'`.execute(db);
}
