// Defect 14 of the third review: two PostgreSQL test runs against one database dropped each other's
// schemas. Each run now owns its schemas and drops only its own (test/support/test-schemas.ts).
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECT } from '../../support/context.js';
import { dropRunSchemas, dropStaleSchemas, newRunId, testSchemaName, urlOfDatabase } from '../../support/test-schemas.js';

const url = process.env.TEST_DATABASE_URL;

async function withClient<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

const exists = (names: string[]) =>
  withClient(async (c) => {
    const { rows } = await c.query<{ nspname: string }>('select nspname from pg_namespace where nspname = any($1)', [names]);
    return new Set(rows.map((r) => r.nspname));
  });

describe.runIf(TEST_DIALECT === 'postgres' && url)('test runs sharing one PostgreSQL database', () => {
  it('two PostgreSQL test runs against one database drop only their own schemas', async () => {
    const now = Date.now();
    const mine = testSchemaName(newRunId(now), 'a');
    const other = testSchemaName(newRunId(now - 1000), 'b');
    const crashed = testSchemaName(newRunId(now - 25 * 60 * 60 * 1000), 'c');
    const foreign = 'sector_test_not_a_run';
    await withClient(async (c) => {
      for (const s of [mine, other, crashed, foreign]) await c.query(`create schema if not exists "${s}"`);
    });
    try {
      // A run starting: only schemas of runs older than a day go.
      await dropStaleSchemas(url!, now);
      expect(await exists([mine, other, crashed, foreign])).toEqual(new Set([mine, other, foreign]));
      // A run ending: only its own go; the other run's, started a second before, stay.
      await dropRunSchemas(url!, mine.slice('sector_test_'.length, -'_a'.length));
      expect(await exists([mine, other, foreign])).toEqual(new Set([other, foreign]));
    } finally {
      await withClient(async (c) => {
        for (const s of [mine, other, crashed, foreign]) await c.query(`drop schema if exists "${s}" cascade`);
      });
    }
  });

  // Each DROP DATABASE waits for a checkpoint of the whole server: amid a full run's writes, the three
  // here have taken more than the default 30 s.
  it(
    'drops only their own databases too (the copies in-process applications get), even with a connection open',
    { timeout: 120_000 },
    async () => {
      const now = Date.now();
      const mine = testSchemaName(newRunId(now), 'a');
      const other = testSchemaName(newRunId(now - 1000), 'b');
      const crashed = testSchemaName(newRunId(now - 25 * 60 * 60 * 1000), 'c');
      const databases = () =>
        withClient(async (c) => {
          const { rows } = await c.query<{ datname: string }>('select datname from pg_database where datname = any($1)', [
            [mine, other, crashed],
          ]);
          return new Set(rows.map((r) => r.datname));
        });
      await withClient(async (c) => {
        for (const d of [mine, other, crashed]) await c.query(`create database "${d}"`);
      });
      // A server a failed test left running still holds a connection to its database.
      const left = new pg.Client({ connectionString: urlOfDatabase(url!, mine) });
      await left.connect();
      left.on('error', () => {});
      try {
        await dropStaleSchemas(url!, now);
        expect(await databases()).toEqual(new Set([mine, other]));
        await dropRunSchemas(url!, mine.slice('sector_test_'.length, -'_a'.length));
        expect(await databases()).toEqual(new Set([other]));
      } finally {
        await left.end().catch(() => {});
        await withClient(async (c) => {
          for (const d of [mine, other, crashed]) await c.query(`drop database if exists "${d}" with (force)`);
        });
      }
    },
  );
});
