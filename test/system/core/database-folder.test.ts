// The folder of a SQLite DATABASE_URL is created when missing, and a folder that cannot be
// created is one line on stderr, never a hang (Node's recursive mkdir loops forever on procfs).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_DIALECT, tempDir } from '../../support/context.js';
import { ROOT, runCli } from '../../support/processes.js';

/** The CLI as a process, killed after 20 s: a hang is a failure, not a stuck test run. */
function cli(args: string[], databaseUrl: string) {
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/cli/index.js'), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { code: r.status, signal: r.signal, stderr: r.stderr };
}

describe.runIf(TEST_DIALECT === 'sqlite')('the folder of a SQLite database', () => {
  it.runIf(fs.existsSync('/proc/self'))('under /proc: fails at once with one line naming the folder', () => {
    const r = cli(['migrate'], 'sqlite:/proc/x/y.db');
    expect(r.signal).toBeNull();
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr.trim()).toBe('sector: cannot create the folder /proc/x of the SQLite database in DATABASE_URL: ENOENT');
  });

  it('below a file: fails with one line saying what is in the way', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'file'), '');
    const r = cli(['migrate'], `sqlite:${dir}/file/sub/sector.db`);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe(
      `sector: cannot create the folder ${dir}/file/sub of the SQLite database in DATABASE_URL: ${dir}/file is not a folder`,
    );
  });

  it('is created with its missing parents', () => {
    const dir = tempDir();
    const r = runCli(['migrate'], { DATABASE_URL: `sqlite:${dir}/a/b/c/sector.db` });
    expect(r.code, r.stderr).toBe(0);
    expect(fs.statSync(`${dir}/a/b/c/sector.db`).isFile()).toBe(true);
  });
});
