import pg from 'pg';

// Drops the schemas earlier PostgreSQL test runs left behind. Fails the run when
// TEST_DATABASE_URL is set but the server cannot be reached.

/** Schemas are named sector_test_<worker pid>_…: one whose worker still runs belongs to another, concurrent run. */
function inUse(schema: string): boolean {
  const pid = Number(/^sector_test_(\d+)_/.exec(schema)?.[1]);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function dropTestSchemas(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`TEST_DATABASE_URL=${url} is unreachable: ${(err as Error).message}`, { cause: err });
  }
  try {
    const { rows } = await client.query<{ nspname: string }>("select nspname from pg_namespace where nspname like 'sector_test_%'");
    for (const { nspname } of rows) {
      if (!inUse(nspname)) await client.query(`drop schema if exists "${nspname}" cascade`);
    }
  } finally {
    await client.end();
  }
}

export async function setup(): Promise<void> {
  await dropTestSchemas();
}

export async function teardown(): Promise<void> {
  await dropTestSchemas();
}
