import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToken } from '../src/auth/tokens.js';
import { openDatabase } from '../src/db/connection.js';
import { freshDatabaseUrl } from './support/context.js';
import { runCli, runCliInteractive, startServer, type ServerProcess } from './support/processes.js';

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
    for (let i = 0; i < 5; i++) expect((await fetch(`${own.url}/api/positions`, { headers: { authorization: `Bearer ${key.token}` } })).status).toBe(200);
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
    expect(runCli(['create:apikey', '--name', 'old bot', '--read-only', '--variant', 'older', '--compat', 'controlcenter'], local).code).toBe(0);
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

  it('refuses a duplicate key name', () => {
    const local = { DATABASE_URL: freshDatabaseUrl() };
    expect(runCli(['create:apikey', '--name', 'twice', '--edit'], local).code).toBe(0);
    const r = runCli(['create:apikey', '--name', 'twice', '--read-only'], local);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('sector: an API key named "twice" already exists');
    expect(JSON.parse(runCli(['apikey:list', '--json'], local).stdout)).toHaveLength(1);
  });
});
