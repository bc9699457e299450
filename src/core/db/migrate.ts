import { Migrator, sql, type Migration, type MigrationProvider } from 'kysely';
import type { Db } from './connection.js';
import * as m0001 from './migrations/0001_initial.js';
import * as m0002 from './migrations/0002_booking_overlap_index.js';
import * as m0003 from './migrations/0003_endorsements_user_order_index.js';
import * as m0004 from './migrations/0004_booking_forced_training.js';
import * as m0005 from './migrations/0005_events.js';
import * as m0006 from './migrations/0006_booking_revision.js';
import * as m0007 from './migrations/0007_audit_log.js';
import * as m0008 from './migrations/0008_network_pushes.js';
import * as m0009 from './migrations/0009_bookings_end_index.js';
import * as m0010 from './migrations/0010_outbox_cursors.js';
import * as m0011 from './migrations/0011_background_jobs.js';
import * as m0012 from './migrations/0012_controlling_sessions.js';
import * as m0013 from './migrations/0013_activity_backfill.js';
import * as m0014 from './migrations/0014_sign_in.js';
import * as m0015 from './migrations/0015_member_calendars.js';
import * as m0016 from './migrations/0016_network_push_pending_since.js';
import * as m0017 from './migrations/0017_roster_staging.js';
import * as m0018 from './migrations/0018_feed_logon_time.js';
import * as m0019 from './migrations/0019_one_lease.js';
import * as m0020 from './migrations/0020_staff.js';
import * as m0021 from './migrations/0021_training.js';
import * as m0022 from './migrations/0022_idempotency_keys.js';
import * as m0023 from './migrations/0023_planned_examinations.js';
import * as m0024 from './migrations/0024_report_templates.js';
import * as m0025 from './migrations/0025_attachments.js';
import * as m0026 from './migrations/0026_training_links.js';
import * as m0028 from './migrations/0028_report_indexes.js';
import * as m0029 from './migrations/0029_tasks.js';
import * as m0030 from './migrations/0030_facilities.js';
import * as m0031 from './migrations/0031_sweatbox.js';
import * as m0032 from './migrations/0032_votes.js';
import * as m0033 from './migrations/0033_feedback.js';
import * as m0034 from './migrations/0034_notices.js';
import * as m0036 from './migrations/0036_division_requests.js';
import * as m0037 from './migrations/0037_division_cpt.js';
import * as m0038 from './migrations/0038_division_syncs.js';

// Migrations are listed in code (not discovered on disk) so the compiled build and a
// container image carry exactly the same set. Add new files here in order.
const MIGRATIONS = {
  '0001_initial': m0001,
  '0002_booking_overlap_index': m0002,
  '0003_endorsements_user_order_index': m0003,
  '0004_booking_forced_training': m0004,
  '0005_events': m0005,
  '0006_booking_revision': m0006,
  '0007_audit_log': m0007,
  '0008_network_pushes': m0008,
  '0009_bookings_end_index': m0009,
  '0010_outbox_cursors': m0010,
  '0011_background_jobs': m0011,
  '0012_controlling_sessions': m0012,
  '0013_activity_backfill': m0013,
  '0014_sign_in': m0014,
  '0015_member_calendars': m0015,
  '0016_network_push_pending_since': m0016,
  '0017_roster_staging': m0017,
  '0018_feed_logon_time': m0018,
  '0019_one_lease': m0019,
  '0020_staff': m0020,
  '0021_training': m0021,
  '0022_idempotency_keys': m0022,
  '0023_planned_examinations': m0023,
  '0024_report_templates': m0024,
  '0025_attachments': m0025,
  '0026_training_links': m0026,
  '0028_report_indexes': m0028,
  '0029_tasks': m0029,
  '0030_facilities': m0030,
  '0031_sweatbox': m0031,
  '0032_votes': m0032,
  '0033_feedback': m0033,
  '0034_notices': m0034,
  '0036_division_requests': m0036,
  '0037_division_cpt': m0037,
  '0038_division_syncs': m0038,
};

/** The registered migrations' names, in order (a test checks every file in migrations/ is here). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

export async function migrateToLatest(db: Db): Promise<string[]> {
  // Every CLI command and server start comes here: a database that is already current costs one
  // query, not the migrator's table checks and lock (tens of milliseconds on PostgreSQL).
  if (await isCurrent(db)) return [];
  if (db.dialect === 'postgres') {
    // Two instances may start at once: both statements are idempotent and safe to race.
    if (db.schema) await sql`CREATE SCHEMA IF NOT EXISTS ${sql.id(db.schema)}`.execute(db.kysely).catch(ignoreDuplicate);
    await sql`CREATE EXTENSION IF NOT EXISTS btree_gist SCHEMA public`.execute(db.kysely).catch(ignoreDuplicate);
  }
  const migrator = migratorOf(db);
  const { error, results } = await migrator.migrateToLatest();
  // A migration that throws a non-Error throws a string in practice.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The migrator of the registered migrations (tests also move a database to an older one with it). */
export function migratorOf(db: Db): Migrator {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, mod] of Object.entries(MIGRATIONS)) {
        out[name] = { up: (k) => mod.up(k, db.dialect) };
      }
      return out;
    },
  };
  return new Migrator({
    db: db.kysely,
    provider,
    migrationTableName: 'sector_migrations',
    migrationLockTableName: 'sector_migrations_lock',
    // Without it Kysely would take another schema's migration table for ours.
    ...(db.schema ? { migrationTableSchema: db.schema } : {}),
  });
}

// CREATE … IF NOT EXISTS can still fail with a unique violation when two sessions race.
function ignoreDuplicate(err: unknown): void {
  const code = (err as { code?: string } | null | undefined)?.code;
  if (code !== '23505' && code !== '42P06' && code !== '42710') throw err;
}

/** True when exactly the registered migrations have run; false when any is missing or unknown. */
async function isCurrent(db: Db): Promise<boolean> {
  const table = db.schema ? sql.id(db.schema, 'sector_migrations') : sql.id('sector_migrations');
  try {
    const { rows } = await sql<{ name: string }>`SELECT name FROM ${table} ORDER BY name`.execute(db.kysely);
    return rows.length === MIGRATION_NAMES.length && rows.every((r, i) => r.name === MIGRATION_NAMES[i]);
  } catch {
    // No migration table yet (or no schema): the migrator creates them.
    return false;
  }
}
