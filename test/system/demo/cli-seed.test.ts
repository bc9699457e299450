// seed:demo only ever fills an empty database, also when two run at once, and says plainly
// what is wrong with a bad --seed.
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { buildDemoDivision } from '../../../src/features/demo/division.js';
import { freshDatabaseUrl } from '../../support/context.js';
import { migratedDatabase, tableRows } from '../../support/db-state.js';
import { buildUser } from '../../support/factories.js';
import { runCli, runCliAsync } from '../../support/processes.js';
import { importData } from '../../support/seed.js';

async function snapshot(url: string) {
  const db = openDatabase(url);
  try {
    const users = (await db.kysely.selectFrom('users').select(['id', 'first_name']).orderBy('id').execute()).map(
      (u) => `${u.id} ${u.first_name}`,
    );
    const bookings = await db.kysely
      .selectFrom('bookings')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const endorsements = await db.kysely
      .selectFrom('endorsements')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return { users, bookings: Number(bookings.n), endorsements: Number(endorsements.n) };
  } finally {
    await db.close();
  }
}

describe('npx sector seed:demo', () => {
  // Three rounds of four CLI processes (each migrating, the winner loading a whole division with its
  // events and audit entries): a budget for a busy machine, not a speed target.
  it(
    'run twice at once: one fills the database, the other says it holds data, exits 1 and changes nothing',
    { timeout: 120_000 },
    async () => {
      // What each seed gives on its own, seeded once: the demo division of that seed, loaded in this
      // process into an empty database.
      const seeded = new Map<string, Awaited<ReturnType<typeof snapshot>>>();
      const alone = async (seed: string) => {
        if (!seeded.has(seed)) {
          const env = { DATABASE_URL: freshDatabaseUrl() };
          await importData(env, buildDemoDivision({ now: Date.now(), seed: Number(seed) }));
          seeded.set(seed, await snapshot(env.DATABASE_URL));
        }
        return seeded.get(seed)!;
      };
      for (let round = 0; round < 3; round++) {
        const env = await migratedDatabase();
        // Different seeds: a loser that got through would add a second division to the first.
        const results = await Promise.all([runCliAsync(['seed:demo', '--seed', '1'], env), runCliAsync(['seed:demo', '--seed', '2'], env)]);
        const winners = results.filter((r) => r.code === 0);
        const losers = results.filter((r) => r.code !== 0);
        expect(winners, JSON.stringify(results)).toHaveLength(1);
        expect(losers).toHaveLength(1);
        const loser = losers[0]!;
        expect(loser.code).toBe(1);
        expect(loser.stderr.trim().split('\n')).toHaveLength(1);
        expect(loser.stderr.trim()).toMatch(/^sector: the database already holds users or bookings/);

        // The database holds exactly the winner's division: the same as that seed alone gives.
        const seed = results[0].code === 0 ? '1' : '2';
        expect(await snapshot(env.DATABASE_URL)).toEqual(await alone(seed));
      }
    },
  );

  it('run again: says the demo division is already loaded and exits 0; over anyone else it exits 1', { timeout: 60_000 }, async () => {
    const env = await migratedDatabase();
    const tables = ['users', 'bookings', 'endorsements', 'trainings', 'roles', 'audit_log'] as const;
    expect(runCli(['seed:demo'], env).code).toBe(0);
    const before = await tableRows(env.DATABASE_URL, tables);
    const again = runCli(['seed:demo'], env);
    expect(again.code).toBe(0);
    expect(again.stderr.trim()).toBe('The demo division (seed 1) is already loaded; nothing was changed.');
    expect(await tableRows(env.DATABASE_URL, tables)).toEqual(before);

    // Someone who is not of the demo division: the database is not the demo's.
    await importData(env, { users: [buildUser({ id: 1234567 })] });
    const other = runCli(['seed:demo'], env);
    expect(other.code).toBe(1);
    expect(other.stderr.trim()).toBe('sector: the database already holds users or bookings; seed:demo only fills an empty database');
  });

  it.each([
    ['-1', '--seed must be a whole number from 0 to 999999999 (got "-1")'],
    ['1000000000', '--seed must be a whole number from 0 to 999999999 (got "1000000000")'],
    ['1.5', '--seed must be a whole number from 0 to 999999999 (got "1.5")'],
    ['abc', '--seed must be a whole number from 0 to 999999999 (got "abc")'],
  ])('refuses --seed %s with one line saying what is allowed', (seed, message) => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    for (const args of [
      ['seed:demo', '--seed', seed],
      ['seed:demo', `--seed=${seed}`],
    ]) {
      const r = runCli(args, env);
      expect(r.code).toBe(1);
      expect(r.stderr.trim()).toBe(`sector: ${message}`);
    }
  });
});
