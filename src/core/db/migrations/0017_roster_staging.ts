import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// The roster sync stages the network's roster page by page instead of holding it in memory, and
// plans its changes from SQL. One run at a time: roster_sync_runs holds at most one row (slot is
// unique and can only be 1), renewed while the run makes progress; a crashed run's row lapses and
// the next run replaces it. Staged rows belong to the run that holds that row and are deleted with
// it, so a run cannot stage rows once it has lost its lease, and a crashed run's rows go with its
// lapsed row.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await sql`CREATE TABLE roster_sync_runs (
    run_id text PRIMARY KEY,
    slot integer NOT NULL DEFAULT 1 UNIQUE CHECK (slot = 1),
    started_at bigint NOT NULL,
    lease_until bigint NOT NULL
  )`.execute(db);
  // kind: 'roster' (a member of the roster read), 'member' (a leaver's own record, without name or
  // e-mail: personal = 0), 'unknown' (a leaver for whom the network responded with 404: no fields).
  await sql`CREATE TABLE roster_staging (
    run_id text NOT NULL REFERENCES roster_sync_runs (run_id) ON DELETE CASCADE,
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
