// What a database holds, read in this process: for tests that show that a command (a real CLI
// process) changed nothing, or what it changed. A CLI read such as `apikey:list --json` costs a
// process and shows only one table, through the command's own formatting.
import { type Kysely, sql } from 'kysely';
import { openDatabase } from '../../src/core/db/connection.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import type { Database } from '../../src/core/db/schema.js';
import { freshDatabaseUrl } from './context.js';

export type Table = keyof Database;

/** The division's data below its areas: what an import writes. */
export const DIVISION_TABLES = [
  'users',
  'user_area_activity',
  'positions',
  'endorsements',
  'endorsement_areas',
  'endorsement_positions',
  'roles',
  'trainings',
  'training_ratings',
  'training_mentors',
  'training_facilities',
  'training_reports',
  'training_examinations',
  'training_examiners',
  'training_timeline',
  'report_templates',
  'training_attachments',
  'tasks',
  'facilities',
  'bookings',
] as const satisfies readonly Table[];

/** Every table of the schema (checked below: a table added to Database must be added here). */
export const ALL_TABLES = [
  'areas',
  ...DIVISION_TABLES,
  'api_keys',
  'events',
  'webhooks',
  'job_leases',
  'webhook_deliveries',
  'webhook_attempts',
  'network_pushes',
  'outbox_cursors',
  'division_requests',
  'division_flags',
  'division_cpt',
  'division_syncs',
  'audit_log',
  'sessions',
  'login_states',
  'training_links',
  'settings',
  'member_calendars',
  'atc_sessions',
  'activity_backfill',
  'roster_staging',
  'mail_outbox',
  'idempotency_keys',
  'member_settings',
  'mail_choices',
  'notices_sent',
  'sweatbox_sessions',
  'votes',
  'vote_options',
  'vote_voters',
  'feedback',
  'feedback_comments',
] as const satisfies readonly Table[];
type NoneMissing<T extends never> = T;
type _EveryTableListed = NoneMissing<Exclude<Table, (typeof ALL_TABLES)[number]>>;

/** fn's result over a connection of this process to the database, closed afterwards. */
export async function readDatabase<R>(databaseUrl: string, fn: (db: Kysely<Database>) => Promise<R>): Promise<R> {
  const db = openDatabase(databaseUrl);
  try {
    return await fn(db.kysely);
  } finally {
    await db.close();
  }
}

/** Every row of each table (as JSON, in a stable order), to compare before and after a command. */
export function tableRows<T extends Table>(databaseUrl: string, tables: readonly T[]): Promise<Record<T, string[]>> {
  return readDatabase(databaseUrl, async (db) => {
    const out = {} as Record<T, string[]>;
    for (const table of tables) {
      const { rows } = await sql<Record<string, unknown>>`SELECT * FROM ${sql.table(table)}`.execute(db);
      out[table] = rows.map((r) => JSON.stringify(r)).sort();
    }
    return out;
  });
}

/** A fresh database, migrated in this process (for a test whose command is not `migrate`). */
export async function migratedDatabase(): Promise<{ DATABASE_URL: string }> {
  const env = { DATABASE_URL: freshDatabaseUrl() };
  const db = openDatabase(env.DATABASE_URL);
  try {
    await migrateToLatest(db);
  } finally {
    await db.close();
  }
  return env;
}
