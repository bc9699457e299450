// A relative SQLite path (the default sqlite:./data/sector.db among them) is Sector's folder's,
// not the current folder's: a CLI command run from a sub-folder uses the server's database.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { TEST_DIALECT, tempDir, writeImportFile } from '../../support/context.js';
import { buildDivision } from '../../support/factories.js';
import { ROOT, startServer } from '../../support/processes.js';

/** The CLI as a process started in `cwd`. */
function cliIn(cwd: string, args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli/index.js'), ...args], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe.runIf(TEST_DIALECT === 'sqlite')('a relative SQLite path', { timeout: 180_000 }, () => {
  // A folder of its own under data/ (ignored by git), removed afterwards: the project's own
  // data/sector.db is never touched.
  const folder = `data/test-${process.pid}-${Date.now()}`;
  const env = { DATABASE_URL: `sqlite:./${folder}/sector.db` };
  afterAll(() => fs.rmSync(path.join(ROOT, folder), { recursive: true, force: true }));

  it('is the default, taken from the project folder whatever the current one', () => {
    expect(loadConfig({}).databaseUrl).toBe(`sqlite:${path.join(ROOT, 'data/sector.db')}`);
    expect(loadConfig({ DATABASE_URL: 'sqlite:/srv/sector.db' }).databaseUrl).toBe('sqlite:/srv/sector.db');
    expect(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).databaseUrl).toBe('sqlite::memory:');
  });

  it('names the same database from a sub-folder, another folder and the root: a key made in docs/ works on the server', async () => {
    const imported = cliIn(path.join(ROOT, 'docs'), ['import', writeImportFile(buildDivision())], env);
    expect(imported.code, imported.stderr).toBe(0);
    const created = cliIn(path.join(ROOT, 'docs'), ['create:apikey', '--name', 'from docs', '--read-only', '--json'], env);
    expect(created.code, created.stderr).toBe(0);
    const { token } = JSON.parse(created.stdout) as { token: string };
    expect(fs.existsSync(path.join(ROOT, 'docs/data'))).toBe(false);
    expect(fs.statSync(path.join(ROOT, folder, 'sector.db')).isFile()).toBe(true);

    // Listed from elsewhere too.
    const listed = cliIn(tempDir(), ['apikey:list', '--json'], env);
    expect((JSON.parse(listed.stdout) as Array<{ name: string }>).map((k) => k.name)).toEqual(['from docs']);

    const server = await startServer(env, ROOT);
    try {
      const res = await fetch(`${server.url}/api/users`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
