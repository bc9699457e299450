// A database written by an earlier release comes through today's migrations with nothing lost:
// every value it held is still there, unchanged, and its key and webhook still work. The databases
// are the dumps of test/fixtures/releases/ (`npm run release:dumps`, once per release).
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECT } from '../../support/context.js';
import { ROOT, runCliAsync, startServer } from '../../support/processes.js';
import { RELEASES_DIR, loadRelease, releases, rowsOf, tableColumns } from '../../support/releases.js';

/** Tables a later migration renamed on purpose: old name → new name (their rows are compared there). */
const RENAMED: Record<string, string> = {};
/**
 * Tables ('table') and columns ('table.column') of a release that a later migration dropped, or whose
 * values it rewrites, on purpose → which migration and why. Anything else must come through unchanged.
 */
const NOT_KEPT: Record<string, string> = {};

/** The rows of `before` missing from `after` (as many times as they are missing). */
function missing(before: readonly string[], after: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const row of after) left.set(row, (left.get(row) ?? 0) + 1);
  return before.filter((row) => {
    const n = left.get(row) ?? 0;
    if (n > 0) left.set(row, n - 1);
    return n === 0;
  });
}

describe('upgrades from earlier releases', () => {
  it('every release in CHANGELOG.md has its dumps, and package.json carries the newest', () => {
    const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
    const listed = [...changelog.matchAll(/^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$/gm)].map((m) => m[1]!);
    expect(listed.length).toBeGreaterThan(0);
    expect(releases().map((r) => r.version)).toEqual([...listed].reverse());
    const version = (file: string) => (JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8')) as { version: string }).version;
    expect([version('package.json'), version('packages/sector-cli/package.json')]).toEqual([listed[0], listed[0]]);
    for (const r of releases())
      expect(fs.readdirSync(path.join(RELEASES_DIR, r.version)).sort()).toEqual(['postgres.sql', 'release.json', 'sqlite.sql']);
  });

  for (const release of releases()) {
    const made = release[TEST_DIALECT];

    it(
      `a database of ${release.version} migrates with every value kept, and ${made.webhook ? 'its key and webhook still work' : 'its key still works'}`,
      { timeout: 120_000 },
      async () => {
        const old = await loadRelease(release.version, TEST_DIALECT);
        const env = { DATABASE_URL: await loadRelease(release.version, TEST_DIALECT) };
        const migrated = await runCliAsync(['migrate'], env);
        expect(migrated.stderr).toMatch(/Applied migrations|already up to date/);
        expect(migrated.code).toBe(0);

        // Every column of every table of the old database, compared row for row with the migrated one.
        const oldTables = await tableColumns(old);
        const newTables = await tableColumns(env.DATABASE_URL);
        const compared = new Map<string, string[]>();
        const gone: string[] = [];
        for (const [table, columns] of oldTables) {
          if (table in NOT_KEPT) continue;
          const now = newTables.get(RENAMED[table] ?? table);
          if (!now) {
            gone.push(table);
            continue;
          }
          gone.push(...columns.filter((c) => !now.includes(c) && !(`${table}.${c}` in NOT_KEPT)).map((c) => `${table}.${c}`));
          compared.set(
            table,
            columns.filter((c) => now.includes(c) && !(`${table}.${c}` in NOT_KEPT)),
          );
        }
        expect(gone, 'tables and columns gone after the migrations (list them in NOT_KEPT or RENAMED if meant)').toEqual([]);
        const before = await rowsOf(old, compared);
        const after = await rowsOf(env.DATABASE_URL, new Map([...compared].map(([t, c]) => [RENAMED[t] ?? t, c])));
        expect([...before.values()].flat().length).toBeGreaterThan(1000);
        for (const [table, columns] of compared) {
          const lost = missing(before.get(table)!, after.get(RENAMED[table] ?? table)!);
          expect(lost, `rows of ${table} (${columns.join(', ')}) lost or changed by the migrations`).toEqual([]);
        }

        const server = await startServer(env);
        try {
          const get = (url: string) => fetch(`${server.url}${url}`, { headers: { authorization: `Bearer ${made.key.token}` } });
          const users = await get('/api/users?include[]=allUsers');
          expect(users.status).toBe(200);
          expect(((await users.json()) as unknown[]).length).toBe(before.get('users')!.length);
          const booking = await get(`/api/bookings/${made.booking}`);
          expect(booking.status).toBe(200);
          expect(await booking.json()).toMatchObject({ id: made.booking });
        } finally {
          await server.stop();
        }

        if (made.webhook) {
          const list = await runCliAsync(['webhook:list', '--json'], env);
          expect(list.code).toBe(0);
          expect(JSON.parse(list.stdout)).toEqual([expect.objectContaining({ id: made.webhook.id, url: made.webhook.url })]);
        }
      },
    );
  }
});
