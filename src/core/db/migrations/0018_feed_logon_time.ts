import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// The feed's own logon time of a session, as the network gave it. A session's start (logon_time)
// is never after its first sighting, so a logon the network dates ahead of its feed (clock skew)
// starts at that sighting; this column finds the session again at the next poll, so the skew does
// not split it. Null for sessions of the members' history. Sessions so far started at it.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`ALTER TABLE atc_sessions ADD COLUMN feed_logon_time bigint`.execute(db);
  await sql`UPDATE atc_sessions SET feed_logon_time = logon_time WHERE source = 'feed'`.execute(db);
  // A feed document dated ahead of the clock once stored times in the future, keeping sessions open
  // for ever; such a time becomes the migration's own, so those sessions end at the next poll.
  const now = Date.now();
  await sql`UPDATE atc_sessions SET last_seen = ${now} WHERE last_seen > ${now}`.execute(db);
  await sql`UPDATE atc_sessions SET logon_time = ${now} WHERE logon_time > ${now}`.execute(db);
  await sql`UPDATE atc_sessions SET ended_at = ${now} WHERE ended_at > ${now}`.execute(db);
}
