import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToken } from '../../../src/features/api-keys/tokens.js';
import { openDatabase } from '../../../src/core/db/connection.js';
import { freshDatabaseUrl } from '../../support/context.js';
import { ALL_TABLES, migratedDatabase, readDatabase, tableRows } from '../../support/db-state.js';
import { ROOT, runCli, runCliAsync, runCliInteractive, startServer, type CliResult, type ServerProcess } from '../../support/processes.js';
import { createKey } from '../../support/seed.js';

const CLI = path.join(ROOT, 'dist/cli/index.js');

/** The stored API keys, oldest first (as apikey:list lists them), read in this process. */
function storedKeys(url: string) {
  return readDatabase(url, (db) => db.selectFrom('api_keys').selectAll().orderBy('created_at').orderBy('id').execute());
}

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
  /** One database for the refusals: each must leave it as it found it. */
  let refusals: { DATABASE_URL: string };
  beforeAll(async () => {
    server = await startServer(env);
    refusals = await migratedDatabase();
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
    const token = await createKey(local, 'poller', 'read-only');
    for (let i = 0; i < 5; i++)
      expect((await fetch(`${own.url}/api/positions`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    const before = await storedKeys(local.DATABASE_URL);
    expect(before).toEqual([expect.objectContaining({ name: 'poller', last_used_at: null })]); // batched, not written per request
    expect(await own.stop('SIGTERM')).toBe(0);
    const after = JSON.parse(runCli(['apikey:list', '--json'], local).stdout)[0];
    expect(after.last_used_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });

  it('never logs the token', async () => {
    const token = await createKey(env, 'logger-check', 'edit');
    await get('/api/positions', token);
    await get('/api/positions', `${token}x`);
    expect(server.logs()).toContain('/api/positions');
    expect(server.logs()).not.toContain(parseToken(token)!.secret);
  });

  it('asks edit rights, then a name, when run interactively', async () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    const r = await runCliInteractive(['create:apikey'], local, [
      [/edit rights\?/, 'y\r'],
      [/Name of the API key/, 'Division website\r'],
    ]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/sector_[0-9a-f]{16}_[A-Za-z0-9_-]{43}/);
    expect(await storedKeys(local.DATABASE_URL)).toEqual([
      expect.objectContaining({ name: 'Division website', scope: 'edit', revoked_at: null, expires_at: null }),
    ]);
  });

  it('pins variant and compat, and expires keys', async () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    expect(
      runCli(['create:apikey', '--name', 'old bot', '--read-only', '--variant', 'older', '--compat', 'controlcenter'], local).code,
    ).toBe(0);
    expect(runCli(['create:apikey', '--name', 'temp', '--edit', '--expires-in', '30d'], local).code).toBe(0);
    const keys = await storedKeys(local.DATABASE_URL);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatchObject({ name: 'old bot', scope: 'read', variant: 'older', compat: 'controlcenter', expires_at: null });
    expect(keys[1]).toMatchObject({ name: 'temp', scope: 'edit', variant: null, compat: null });
    expect(keys[1]!.expires_at! - Date.now()).toBeGreaterThan(29 * 86_400_000);
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
  ])('refuses %j with one line on stderr and changes nothing', async (args, message) => {
    const before = await tableRows(refusals.DATABASE_URL, ALL_TABLES);
    expect(before.api_keys).toEqual([]);
    const r = runCli(args, refusals);
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
    expect(await tableRows(refusals.DATABASE_URL, ALL_TABLES)).toEqual(before);
  });

  it('refuses, when asked interactively, a name that looks like a key id, and asks again', async () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    const r = await runCliInteractive(['create:apikey'], local, [
      [/edit rights\?/, 'n\r'],
      [/Name of the API key/, '0123456789abcdef\r'],
      [/must not look like a key id/, `${'\x7f'.repeat(16)}Division website\r`],
    ]);
    expect(r.code).toBe(0);
    expect(await storedKeys(local.DATABASE_URL)).toEqual([expect.objectContaining({ name: 'Division website', scope: 'read' })]);
  });

  it("revokes by exact id or name, and refuses a reference that is one key's id and another's name", async () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    const first = parseToken(await createKey(local, 'first', 'edit'))!;
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
    // What apikey:list says of each key.
    const status = async () =>
      Object.fromEntries(
        (await storedKeys(local.DATABASE_URL)).map((k) => [
          k.id,
          k.revoked_at !== null ? 'revoked' : k.expires_at !== null && k.expires_at <= Date.now() ? 'expired' : 'active',
        ]),
      );

    const unrevoked = await tableRows(local.DATABASE_URL, ALL_TABLES);
    const ambiguous = runCli(['apikey:revoke', first.id], local);
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr.trim()).toBe(
      `sector: "${first.id}" is the id of API key "first" and the name of API key ${second.id}; say "first" for the one or ${second.id} for the other; nothing was revoked`,
    );
    expect(await status()).toEqual({ [first.id]: 'active', [second.id]: 'active' });
    expect(await tableRows(local.DATABASE_URL, ALL_TABLES)).toEqual(unrevoked);

    expect(runCli(['apikey:revoke', second.id], local).code).toBe(0);
    expect(await status()).toEqual({ [first.id]: 'active', [second.id]: 'revoked' });
    const byName = runCli(['apikey:revoke', 'first'], local);
    expect(byName.stderr.trim()).toBe(`Revoked API key "first" (id ${first.id}); it is refused from the next request on.`);
    expect(await status()).toEqual({ [first.id]: 'revoked', [second.id]: 'revoked' });
  });

  it('gives the loser of a race for one name the same one-line refusal, and creates one key', async () => {
    const local = await migratedDatabase();
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
    const winner = JSON.parse(results.find((r) => r.code === 0)!.stdout);
    expect(await storedKeys(local.DATABASE_URL)).toEqual([expect.objectContaining({ name: 'racer', id: winner.id, scope: winner.scope })]);
  });

  it('revokes a key once when two revokes run at once: the other says it is already revoked', async () => {
    const local = await migratedDatabase();
    const key = parseToken(await createKey(local, 'twice', 'edit'))!;
    // Both commands find the key unrevoked before either writes: the race, every time.
    const hold = await holdKeyInserts(local.DATABASE_URL);
    const racers = [runCliAsync(['apikey:revoke', 'twice'], local), runCliAsync(['apikey:revoke', key.id], local)];
    try {
      await hold.waiting(2);
    } finally {
      await hold.release();
    }
    const results = await Promise.all(racers);
    expect(results.map((r) => r.code).sort()).toEqual([0, 1]);
    expect(results.find((r) => r.code === 1)!.stderr).toBe(`sector: API key "twice" (id ${key.id}) is already revoked\n`);
    const audit = await readDatabase(local.DATABASE_URL, (db) =>
      db.selectFrom('audit_log').select('action').where('target', '=', `apikey:${key.id}`).execute(),
    );
    expect(audit.map((e) => e.action)).toEqual(['apikey.created', 'apikey.revoked']);
  });

  it('stops quietly with status 0 when the reader of its output has gone (| head -1)', async () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    await createKey(local, 'listed', 'edit');
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

  it('refuses a duplicate key name', async () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    await createKey(local, 'twice', 'edit');
    const before = await tableRows(local.DATABASE_URL, ALL_TABLES);
    expect(before.api_keys).toHaveLength(1);
    const r = runCli(['create:apikey', '--name', 'twice', '--read-only'], local);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('sector: an API key named "twice" already exists');
    expect(await tableRows(local.DATABASE_URL, ALL_TABLES)).toEqual(before);
  });
});
