import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToken } from '../../src/auth/tokens.js';
import { openDatabase } from '../../src/db/connection.js';
import { freshDatabaseUrl } from '../support/context.js';
import { ROOT, runCli, runCliAsync, runCliInteractive, startServer, type CliResult, type ServerProcess } from '../support/processes.js';

const CLI = path.join(ROOT, 'dist/cli/index.js');

/** The CLI writing into a pipe whose reader has already gone (as `| head -1` does after its line). */
function runCliIntoClosedPipe(args: string[], env: Record<string, string>, stream: 'stdout' | 'stderr'): CliResult {
  const quoted = [process.execPath, CLI, ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const redirect = stream === 'stdout' ? '' : '2>&1 >/dev/null';
  const r = spawnSync('bash', ['-c', `${quoted} ${redirect} | true; echo "\${PIPESTATUS[0]}"`], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: Number(r.stdout.trim()), stdout: '', stderr: r.stderr };
}

/**
 * Makes inserts into api_keys wait (reads go on) until release(), so that two processes can both
 * pass the name check before either inserts: the race, every time.
 */
async function holdKeyInserts(url: string) {
  const db = openDatabase(url);
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let locked!: () => void;
  const isLocked = new Promise<void>((resolve) => (locked = resolve));
  const done = db.kysely.connection().execute(async (conn) => {
    if (db.dialect === 'postgres') {
      await sql`BEGIN`.execute(conn);
      await sql`LOCK TABLE api_keys IN SHARE MODE`.execute(conn);
    } else {
      await sql`BEGIN IMMEDIATE`.execute(conn);
    }
    locked();
    await released;
    await sql`ROLLBACK`.execute(conn);
  });
  await isLocked;
  return {
    /** Resolves once n inserts wait for the lock (PostgreSQL shows them; SQLite gets time to get there). */
    async waiting(n: number): Promise<void> {
      if (db.dialect === 'sqlite') {
        // The single SQLite connection is busy holding the lock; the CLI waits up to 5 s for it.
        await new Promise((resolve) => setTimeout(resolve, 2500));
        return;
      }
      for (let i = 0; i < 400; i++) {
        const { rows } = await sql<{
          n: number;
        }>`SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'api_keys'::regclass AND NOT granted`.execute(db.kysely);
        if (rows[0]!.n >= n) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      throw new Error(`fewer than ${n} inserts waited for the lock`);
    },
    async release(): Promise<void> {
      release();
      await done;
      await db.close();
    },
  };
}

describe('API keys through the CLI and a running server', () => {
  const env = { DATABASE_URL: freshDatabaseUrl() };
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer(env);
  });
  afterAll(() => server.stop());

  const get = (path: string, token?: string) =>
    fetch(`${server.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('create -> use -> revoke -> 401, with the token shown once and stored only as a hash', async () => {
    const created = runCli(['create:apikey', '--name', 'Discord bot', '--read-only', '--json'], env);
    expect(created.code).toBe(0);
    const lines = created.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const key = JSON.parse(lines[0]!);
    expect(Object.keys(key).sort()).toEqual(['id', 'name', 'scope', 'token']);
    expect(key).toMatchObject({ name: 'Discord bot', scope: 'read' });
    expect(key.token).toMatch(/^sector_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);

    expect((await get('/api/positions', key.token)).status).toBe(200);

    // The database holds a hash, never the token or its secret part.
    const db = openDatabase(env.DATABASE_URL);
    const rows = await db.kysely.selectFrom('api_keys').selectAll().execute();
    await db.close();
    const dump = JSON.stringify(rows);
    expect(dump).not.toContain(key.token);
    expect(dump).not.toContain(parseToken(key.token)!.secret);
    expect(rows[0]!.secret_hash).toMatch(/^[0-9a-f]{64}$/);

    const listed = runCli(['apikey:list'], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain('Discord bot');
    expect(listed.stdout).not.toContain(parseToken(key.token)!.secret);

    const revoked = runCli(['apikey:revoke', 'Discord bot'], env);
    expect(revoked.code).toBe(0);
    // Revocation takes effect on the very next request, in a server that was already running.
    const after = await get('/api/positions', key.token);
    expect(after.status).toBe(401);
    expect(await after.json()).toEqual({ message: 'Invalid API key' });

    const status = JSON.parse(runCli(['apikey:list', '--json'], env).stdout);
    expect(status).toEqual([expect.objectContaining({ id: key.id, name: 'Discord bot', status: 'revoked', scope: 'read' })]);
  });

  it('records last use without a write per request, and writes it at shutdown', async () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    const own = await startServer(local);
    const key = JSON.parse(runCli(['create:apikey', '--name', 'poller', '--read-only', '--json'], local).stdout);
    for (let i = 0; i < 5; i++)
      expect((await fetch(`${own.url}/api/positions`, { headers: { authorization: `Bearer ${key.token}` } })).status).toBe(200);
    const before = JSON.parse(runCli(['apikey:list', '--json'], local).stdout)[0];
    expect(before.last_used_at).toBeNull(); // batched, not written per request
    expect(await own.stop('SIGTERM')).toBe(0);
    const after = JSON.parse(runCli(['apikey:list', '--json'], local).stdout)[0];
    expect(after.last_used_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });

  it('never logs the token', async () => {
    const key = JSON.parse(runCli(['create:apikey', '--name', 'logger-check', '--edit', '--json'], env).stdout);
    await get('/api/positions', key.token);
    await get('/api/positions', `${key.token}x`);
    expect(server.logs()).toContain('/api/positions');
    expect(server.logs()).not.toContain(parseToken(key.token)!.secret);
  });

  it('asks edit rights, then a name, when run interactively', async () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    const r = await runCliInteractive(['create:apikey'], local, [
      [/edit rights\?/, 'y\r'],
      [/Name of the API key/, 'Division website\r'],
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/sector_[0-9a-f]{16}_[A-Za-z0-9_-]{43}/);
    const keys = JSON.parse(runCli(['apikey:list', '--json'], local).stdout);
    expect(keys).toEqual([expect.objectContaining({ name: 'Division website', scope: 'edit', status: 'active' })]);
  });

  it('pins variant and compat, and expires keys', async () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    expect(
      runCli(['create:apikey', '--name', 'old bot', '--read-only', '--variant', 'older', '--compat', 'controlcenter'], local).code,
    ).toBe(0);
    expect(runCli(['create:apikey', '--name', 'temp', '--edit', '--expires-in', '30d'], local).code).toBe(0);
    const keys = JSON.parse(runCli(['apikey:list', '--json'], local).stdout);
    expect(keys[0]).toMatchObject({ name: 'old bot', variant: 'older', compat: 'controlcenter', expires_at: null });
    expect(Date.parse(keys[1].expires_at) - Date.now()).toBeGreaterThan(29 * 86_400_000);
  });

  it.each([
    [['create:apikey', '--name', 'x'], /--edit or --read-only/],
    [['create:apikey', '--name', 'x', '--edit', '--read-only'], /one of --edit and --read-only/],
    [['create:apikey', '--name', 'x', '--edit', '--variant', 'newest'], /--variant must be newer or older/],
    [['create:apikey', '--name', 'x', '--edit', '--expires-in', 'soon'], /--expires-in/],
    [['create:apikey', '--name', '', '--edit'], /key name/],
    [['create:apikey', '--name', '0123456789abcdef', '--edit'], /^sector: the key name must not look like a key id \(16 hex digits\)/],
    [['create:apikey'], /no terminal/],
    [['apikey:revoke', 'nobody'], /no API key with id or name "nobody"/],
    [['frobnicate'], /unknown command/],
  ])('refuses %j with one line on stderr and changes nothing', (args, message) => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    const r = runCli(args, local);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(JSON.parse(runCli(['apikey:list', '--json'], local).stdout)).toEqual([]);
  });

  it('refuses, when asked interactively, a name that looks like a key id, and asks again', async () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    const r = await runCliInteractive(['create:apikey'], local, [
      [/edit rights\?/, 'n\r'],
      [/Name of the API key/, '0123456789abcdef\r'],
      [/must not look like a key id/, `${'\x7f'.repeat(16)}Division website\r`],
    ]);
    expect(r.code).toBe(0);
    const keys = JSON.parse(runCli(['apikey:list', '--json'], local).stdout);
    expect(keys).toEqual([expect.objectContaining({ name: 'Division website', scope: 'read' })]);
  });

  it("revokes by exact id or name, and refuses a reference that is one key's id and another's name", async () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    const first = JSON.parse(runCli(['create:apikey', '--name', 'first', '--edit', '--json'], local).stdout);
    // A key named like the first key's id, as could be created before such names were refused.
    const db = openDatabase(local.DATABASE_URL);
    const second = {
      id: 'fedcba9876543210',
      name: first.id as string,
      scope: 'read' as const,
      variant: null,
      compat: null,
      secret_hash: '0'.repeat(64),
      created_at: Date.now(),
      last_used_at: null,
      expires_at: null,
      revoked_at: null,
    };
    await db.kysely.insertInto('api_keys').values(second).execute();
    await db.close();
    const status = () =>
      Object.fromEntries(
        JSON.parse(runCli(['apikey:list', '--json'], local).stdout).map((k: { id: string; status: string }) => [k.id, k.status]),
      );

    const ambiguous = runCli(['apikey:revoke', first.id], local);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr.trim()).toBe(
      `sector: "${first.id}" is the id of API key "first" and the name of API key ${second.id}; say "first" for the one or ${second.id} for the other; nothing was revoked`,
    );
    expect(status()).toEqual({ [first.id]: 'active', [second.id]: 'active' });

    expect(runCli(['apikey:revoke', second.id], local).code).toBe(0);
    expect(status()).toEqual({ [first.id]: 'active', [second.id]: 'revoked' });
    const byName = runCli(['apikey:revoke', 'first'], local);
    expect(byName.stderr.trim()).toBe(`Revoked API key "first" (id ${first.id}); it is refused from the next request on.`);
    expect(status()).toEqual({ [first.id]: 'revoked', [second.id]: 'revoked' });
  });

  it('gives the loser of a race for one name the same one-line refusal, and creates one key', async () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    expect(runCli(['migrate'], local).code).toBe(0);
    const hold = await holdKeyInserts(local.DATABASE_URL);
    const racers = [
      runCliAsync(['create:apikey', '--name', 'racer', '--edit', '--json'], local),
      runCliAsync(['create:apikey', '--name', 'racer', '--read-only', '--json'], local),
    ];
    try {
      await hold.waiting(2);
    } finally {
      await hold.release();
    }
    const results = await Promise.all(racers);
    expect(results.map((r) => r.code).sort()).toEqual([0, 1]);
    const loser = results.find((r) => r.code === 1)!;
    expect(loser.stderr).toBe('sector: an API key named "racer" already exists\n');
    expect(loser.stdout).toBe('');
    const keys = JSON.parse(runCli(['apikey:list', '--json'], local).stdout);
    expect(keys).toEqual([expect.objectContaining({ name: 'racer', id: JSON.parse(results.find((r) => r.code === 0)!.stdout).id })]);
  });

  it('stops quietly with status 0 when the reader of its output has gone (| head -1)', () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    expect(runCli(['create:apikey', '--name', 'listed', '--edit'], local).code).toBe(0);
    for (const args of [['apikey:list'], ['apikey:list', '--json']]) {
      const r = runCliIntoClosedPipe(args, local, 'stdout');
      expect(r.stderr).toBe('');
      expect(r.code).toBe(0);
    }
    // Status lines go to stderr: a closed stderr is the same.
    expect(runCliIntoClosedPipe(['migrate'], local, 'stderr').code).toBe(0);
    // A command that fails still says so by its status.
    expect(runCliIntoClosedPipe(['apikey:revoke', 'nobody'], local, 'stderr').code).toBe(1);
  });

  it('refuses a duplicate key name', () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    expect(runCli(['create:apikey', '--name', 'twice', '--edit'], local).code).toBe(0);
    const r = runCli(['create:apikey', '--name', 'twice', '--read-only'], local);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('sector: an API key named "twice" already exists');
    expect(JSON.parse(runCli(['apikey:list', '--json'], local).stdout)).toHaveLength(1);
  });
});
