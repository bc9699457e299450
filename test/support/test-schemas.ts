// Each test run owns the PostgreSQL schemas and databases it makes: their names carry the run's id
// (sector_test_<run id>_<label>), and the run drops only those at its end, so two runs against one
// server never drop each other's. A run that crashed leaves its schemas behind: a later run drops
// them once they are a day old (no run lasts that long).
import { randomBytes } from 'node:crypto';
import pg from 'pg';

export const TEST_SCHEMA_PREFIX = 'sector_test_';
/** A run id: the run's start in milliseconds, base 36, then 6 hex digits of randomness. */
const RUN_ID = /^sector_test_([0-9a-z]{8,9})([0-9a-f]{6})_/;
const STALE_MS = 24 * 60 * 60 * 1000;

export function newRunId(now = Date.now()): string {
  return `${now.toString(36)}${randomBytes(3).toString('hex')}`;
}

/** A new schema name of the run (at most 63 characters, PostgreSQL's limit). */
export function testSchemaName(runId: string, label: string): string {
  return `${TEST_SCHEMA_PREFIX}${runId}_${label}`.slice(0, 63);
}

/** Runs fn on a connection to the test database, naming the URL when it cannot be reached. */
async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`TEST_DATABASE_URL=${url} is unreachable: ${(err as Error).message}`, { cause: err });
  }
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

async function dropSchemas(url: string, which: (name: string) => boolean): Promise<void> {
  const { schemas, databases } = await withClient(url, async (client) => {
    const names = async (sql: string) =>
      (await client.query<{ name: string }>(sql, [TEST_SCHEMA_PREFIX])).rows.map((r) => r.name).filter(which);
    return {
      schemas: await names('select nspname as name from pg_namespace where starts_with(nspname, $1)'),
      databases: await names('select datname as name from pg_database where starts_with(datname, $1)'),
    };
  });
  // Each DROP DATABASE waits for a checkpoint of the whole server: eight at a time share them.
  const pool = new pg.Pool({ connectionString: url, max: 8 });
  try {
    const drops = await Promise.allSettled([
      ...schemas.map((name) => pool.query(`drop schema if exists "${name}" cascade`)),
      // FORCE: a server a failed test left running must not keep the database.
      ...databases.map((name) => pool.query(`drop database if exists "${name}" with (force)`)),
    ]);
    for (const drop of drops) if (drop.status === 'rejected') throw drop.reason;
  } finally {
    await pool.end();
  }
}

/** A new database of the run, copied from `template` (PostgreSQL copies its files: no statement runs again). */
export function copyDatabase(url: string, name: string, template: string): Promise<void> {
  return withClient(url, async (client) => {
    await client.query(`create database "${name}" template "${template}"`).catch((err: unknown) => {
      if ((err as { code?: string }).code !== '42501') throw err;
      throw new Error(`TEST_DATABASE_URL=${url}: its user may not create databases (ALTER ROLE … CREATEDB), which the tests need`, {
        cause: err,
      });
    });
  });
}

/** TEST_DATABASE_URL pointed at another database of the same server. */
export function urlOfDatabase(url: string, name: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${name}`;
  parsed.searchParams.delete('schema');
  return parsed.toString();
}

/** Drops the run's own schemas and databases (at its end). */
export function dropRunSchemas(url: string, runId: string): Promise<void> {
  return dropSchemas(url, (schema) => schema.startsWith(`${TEST_SCHEMA_PREFIX}${runId}_`));
}

/** Drops the schemas and databases of runs that started more than a day before `now` (crashed runs). */
export function dropStaleSchemas(url: string, now = Date.now()): Promise<void> {
  return dropSchemas(url, (schema) => {
    const match = RUN_ID.exec(schema);
    return match !== null && now - parseInt(match[1]!, 36) > STALE_MS;
  });
}

/**
 * Refuses a database whose public schema holds Sector's tables (a server or CLI pointed at
 * TEST_DATABASE_URL without ?schema= puts them there): each test schema's search_path ends in public,
 * so a table a test removes on purpose would still be found there, failing tests far from the cause.
 */
export function refuseSectorTablesInPublic(url: string): Promise<void> {
  return withClient(url, async (client) => {
    const { rows } = await client.query<{ found: string | null }>("select to_regclass('public.sector_migrations')::text as found");
    if (rows[0]?.found) {
      throw new Error(
        `TEST_DATABASE_URL=${url} holds Sector's tables in its public schema (a server or CLI ran against it without ?schema=); ` +
          'drop them, or use another database: tests would find them on every schema search path',
      );
    }
  });
}
