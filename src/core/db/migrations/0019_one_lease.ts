import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// One lease mechanism: job_leases holds, per name, who holds it now (lease_until) apart from when a
// scheduled worker runs next (next_run_at), so a command (roster:sync) can take the lease between two
// scheduled runs. The roster sync holds the `roster-sync` lease like any worker: its own table of
// runs goes, and its staged rows are marked with the lease's owner (a run that crashed leaves rows
// the next one removes).
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`ALTER TABLE job_leases ADD COLUMN started_at bigint NOT NULL DEFAULT 0`.execute(db);
  await sql`ALTER TABLE job_leases ADD COLUMN next_run_at bigint`.execute(db);
  // Until now a finished run kept its lease until the next run was due.
  const now = Date.now();
  await sql`UPDATE job_leases SET next_run_at = lease_until, lease_until = ${now} WHERE lease_until > ${now}`.execute(db);
  await sql`DROP TABLE roster_staging`.execute(db);
  await sql`DROP TABLE roster_sync_runs`.execute(db);
  // kind: 'roster' (a member of the roster read), 'member' (a leaver's own record, without name or
  // e-mail: personal = 0), 'unknown' (a leaver for whom the network responded with 404: no fields).
  await sql`CREATE TABLE roster_staging (
    run_id text NOT NULL,
    id bigint NOT NULL,
    kind text NOT NULL CHECK (kind IN ('roster', 'member', 'unknown')),
    rating integer CHECK (kind = 'unknown' OR rating IS NOT NULL),
    region text,
    division text,
    subdivision text,
    personal integer NOT NULL,
    email text,
    first_name text,
    last_name text,
    PRIMARY KEY (run_id, id)
  )`.execute(db);
}
