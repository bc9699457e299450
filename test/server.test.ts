import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/context.js';
import { ROOT, startServer } from './support/processes.js';

describe('the server process', () => {
  it('starts on the embedded SQLite default, creating and migrating ./data/sector.db', async () => {
    const cwd = tempDir();
    const env = { ...process.env } as Record<string, string>;
    delete env.DATABASE_URL;
    const server = await startServer({ DATABASE_URL: '' }, cwd);
    expect(fs.existsSync(path.join(cwd, 'data/sector.db'))).toBe(true);
    const res = await fetch(`${server.url}/api/positions`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ data: [] });
    expect(await server.stop('SIGTERM')).toBe(0);
  });

  it('exits 1 with a list of problems on bad configuration', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'dist/server.js')], {
      env: { ...process.env, PORT: 'eighty', API_VARIANT: 'newest', DATABASE_URL: 'mysql://x' },
      encoding: 'utf8',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('Invalid configuration');
    expect(r.stderr).toContain('PORT must be an integer');
    expect(r.stderr).toContain('API_VARIANT must be one of newer, older');
    expect(r.stderr).toContain('DATABASE_URL must be');
    expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
  });

  it('finishes in-flight requests on SIGTERM and exits 0', async () => {
    const server = await startServer({ DATABASE_URL: `sqlite:${path.join(tempDir(), 's.db')}` });
    const inflight = Array.from({ length: 20 }, () => fetch(`${server.url}/api/positions`).then((r) => r.status));
    await Promise.race(inflight); // the server is answering
    const code = server.stop('SIGTERM');
    const statuses = await Promise.allSettled(inflight);
    expect(await code).toBe(0);
    // Requests that reached the server are answered (200, or 503 once closing began), never cut off with a 500.
    const answered = statuses.filter((s) => s.status === 'fulfilled').map((s) => (s as PromiseFulfilledResult<number>).value);
    expect(answered.length).toBeGreaterThan(0);
    for (const status of answered) expect([200, 503]).toContain(status);
  });
});
