import type { Config } from '../config.js';
import { openDatabase, type Db } from '../core/db/connection.js';
import { migrateToLatest } from '../core/db/migrate.js';
import { createServices, type AppServices } from './services.js';

/** Opens the configured database, brings its schema up to date, and builds the services. */
export async function startServices(config: Config): Promise<AppServices> {
  const db: Db = openDatabase(config.databaseUrl, {
    poolSize: config.dbPoolSize,
    statementTimeoutMs: config.dbStatementTimeoutMs,
    sqliteSynchronous: config.sqliteSynchronous,
  });
  try {
    await migrateToLatest(db);
  } catch (err) {
    await db.close().catch(() => {});
    throw err;
  }
  return createServices(config, db);
}

/** One line for an operator, without a stack trace, for errors at start-up. */
export function describeStartupError(err: unknown): string {
  const e = err as { code?: string; message?: string; errors?: unknown[] } | null | undefined;
  if (e?.code === 'ECONNREFUSED' || (Array.isArray(e?.errors) && e.errors.length > 0 && !e.message)) {
    return 'cannot reach the database: connection refused (is PostgreSQL running and DATABASE_URL right?)';
  }
  if (e?.code === 'ENOTFOUND') return 'cannot reach the database: unknown host in DATABASE_URL';
  if (e?.code === '28P01' || e?.code === '28000') return `database refused the login: ${e.message}`;
  if (e?.code === '3D000') return `database does not exist: ${e.message}`;
  if (e?.code === 'SQLITE_CANTOPEN') return `cannot open the SQLite database file: ${e.message}`;
  return e?.message ?? String(err);
}

/** Runs every shutdown step even if one before failed; returns one line naming what failed, or null. */
export async function runShutdownSteps(
  steps: Array<[what: string, run: () => Promise<unknown>]>,
  log?: (step: string) => void,
): Promise<string | null> {
  const failures: string[] = [];
  for (const [what, run] of steps) {
    // A shutdown that hangs is then found in the log at the step it hangs in.
    log?.(what);
    try {
      await run();
    } catch (err) {
      failures.push(`could not ${what}: ${describeStartupError(err)}`);
    }
  }
  return failures.length === 0 ? null : `shutdown incomplete: ${failures.join('; ')}`;
}
