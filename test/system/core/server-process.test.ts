import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { createTestContext, tempDir } from '../../support/context.js';
import { ROOT, startServer } from '../../support/processes.js';
import { createKey } from '../../support/seed.js';

describe('the server process', () => {
  it('starts on the embedded SQLite default, ./data/sector.db of the project whatever the folder it starts in', async () => {
    const cwd = tempDir();
    const server = await startServer({ DATABASE_URL: '' }, cwd);
    expect(fs.existsSync(path.join(ROOT, 'data/sector.db'))).toBe(true);
    expect(fs.existsSync(path.join(cwd, 'data'))).toBe(false);
    const res = await fetch(`${server.url}/api/positions`);
    expect(res.status).toBe(200);
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
    await Promise.race(inflight); // the server is responding
    const code = server.stop('SIGTERM');
    const statuses = await Promise.allSettled(inflight);
    expect(await code).toBe(0);
    // Requests that reached the server get a response (200, or 503 once closing began), never cut off with a 500.
    const responded = statuses.filter((s) => s.status === 'fulfilled').map((s) => s.value);
    expect(responded.length).toBeGreaterThan(0);
    for (const status of responded) expect([200, 503]).toContain(status);
  });

  it('on SIGTERM lets go at once of connections that carry no request, and finishes a stream first', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(tempDir(), 's.db')}` };
    const token = await createKey(env, 'listener', 'read-only');
    const server = await startServer(env);
    const { port } = new URL(server.url);
    // A spare connection that never sends a request, one left open after a request, and a live stream.
    const connect = () =>
      new Promise<net.Socket>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => resolve(socket));
        socket.on('error', reject);
      });
    const silent = await connect();
    const keptAlive = await connect();
    keptAlive.write(`GET /api/positions HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
    await new Promise((resolve) => keptAlive.once('data', resolve));
    const stream = await fetch(`${server.url}/api/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(stream.status).toBe(200);
    const closed = (socket: net.Socket) => new Promise((resolve) => socket.once('close', resolve));
    const gone = Promise.all([closed(silent), closed(keptAlive)]);

    const started = Date.now();
    expect(await server.stop('SIGTERM')).toBe(0);
    await gone;
    await stream.text(); // the stream ended cleanly
    // Held by the silent connection, the server would wait for the client (a minute, by default).
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('exits 1 with one line, no stack trace, when key use cannot be recorded at shutdown', async () => {
    const env = { DATABASE_URL: `sqlite:${path.join(tempDir(), 's.db')}` };
    const server = await startServer(env);
    const token = await createKey(env, 'poller', 'read-only');
    expect((await fetch(`${server.url}/api/positions`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // The batched write at shutdown now fails: its table is gone.
    const other = openDatabase(env.DATABASE_URL);
    await sql`ALTER TABLE api_keys RENAME TO api_keys_elsewhere`.execute(other.kysely);
    await other.close();

    expect(await server.stop('SIGTERM')).toBe(1);
    const errors = server
      .logs()
      .split('\n')
      .filter((line) => line.includes('shutdown incomplete'));
    expect(errors).toHaveLength(1);
    expect(JSON.parse(errors[0]!)).toMatchObject({
      level: 50,
      msg: expect.stringMatching(/^shutdown incomplete: could not record API key use: .*api_keys/),
    });
    expect(server.logs()).not.toMatch(/^\s+at .*:\d+:\d+\)?$/m);
  });
});

describe('recording API key use', () => {
  it('keeps the times of a batch that could not be written, and writes them with the next one', async () => {
    const ctx = await createTestContext();
    try {
      const token = await ctx.key('read', { name: 'kept' });
      await ctx.request({ method: 'GET', url: '/api/positions', token });
      // The table gone for a moment: the batch cannot be written.
      const rename = (from: string, to: string) =>
        sql`ALTER TABLE ${sql.table(from)} RENAME TO ${sql.table(to)}`.execute(ctx.services.db.kysely);
      await rename('api_keys', 'api_keys_away');
      await expect(ctx.services.keys.flushLastUsed()).rejects.toThrow(/api_keys/);
      await rename('api_keys_away', 'api_keys');
      await ctx.services.keys.flushLastUsed();
      const row = await ctx.services.db.kysely
        .selectFrom('api_keys')
        .select('last_used_at')
        .where('name', '=', 'kept')
        .executeTakeFirstOrThrow();
      expect(row.last_used_at).toEqual(expect.any(Number));
    } finally {
      await ctx.close();
    }
  });
});
