// Security properties that hold on every response: protective headers whatever the status,
// CORS only where data is public, keys that expire, and tokens that never leave a trace.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseToken } from '../../../../src/features/api-keys/tokens.js';
import { createTestContext, freshDatabaseUrl, TEST_DIALECT, tempDir, type TestContext } from '../../../support/context.js';
import { buildBooking, buildDivision, buildPosition, buildUser, SCANDINAVIA } from '../../../support/factories.js';
import { runCli, startServer } from '../../../support/processes.js';
import { createKey, importData } from '../../../support/seed.js';
import { whileLocked } from '../../../support/sqlite-lock.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);

const division = buildDivision({
  users: [buildUser({ email: 'ada@example.org', ...SCANDINAVIA, atc_active_areas: { Denmark: true } })],
  positions: [buildPosition('EKCH_TWR', { required_facility: null })],
  bookings: [buildBooking({ time_start: '2026-03-12 10:00:00', time_end: '2026-03-12 12:00:00', tag: null, source: 'CC' })],
});

type Exchange = { headers: Record<string, unknown> };

function expectProtected(res: Exchange, what: string): void {
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['x-frame-options'], what).toBe('DENY');
}

describe('security headers', () => {
  let ctx: TestContext;
  let read: string;
  let edit: string;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(division);
    read = await ctx.key('read');
    edit = await ctx.key('edit');
  });
  afterAll(() => ctx.close());

  it('are on every status the application returns', async () => {
    const etag = (await ctx.request({ method: 'GET', url: '/api/positions' })).headers.etag as string;
    const cases: Array<[number, Parameters<TestContext['request']>[0]]> = [
      [200, { method: 'GET', url: '/api/positions' }],
      [200, { method: 'GET', url: '/health' }],
      [200, { method: 'GET', url: '/openapi.json' }],
      [304, { method: 'GET', url: '/api/positions', headers: { 'if-none-match': etag } }],
      [400, { method: 'GET', url: '/api/bookings/%E0%A4%A' }],
      [
        400,
        { method: 'POST', url: '/api/bookings/create', token: edit, headers: { 'content-type': 'application/json' }, payload: '{"cid":' },
      ],
      [401, { method: 'GET', url: '/api/users?include[]=allUsers' }],
      [403, { method: 'POST', url: '/api/bookings/create', token: read, payload: {} }],
      [404, { method: 'GET', url: '/api/nothing-here' }],
      [404, { method: 'GET', url: '/api/bookings/999999', token: read }],
      [405, { method: 'PUT', url: '/api/positions' }],
      [
        413,
        {
          method: 'POST',
          url: '/api/bookings/create',
          token: edit,
          headers: { 'content-type': 'application/json' },
          payload: JSON.stringify({ position: 'x'.repeat(70_000) }),
        },
      ],
      [414, { method: 'GET', url: `/api/bookings/${'9'.repeat(300)}` }],
      [415, { method: 'POST', url: '/api/bookings/create', token: edit, headers: { 'content-type': 'text/xml' }, payload: '<b/>' }],
      [422, { method: 'POST', url: '/api/bookings/create', token: edit, payload: { cid: 'x' } }],
    ];
    for (const [status, request] of cases) {
      const res = await ctx.request(request);
      const what = `${request.method} ${JSON.stringify(request.url).slice(0, 60)}`;
      expect(res.statusCode, what).toBe(status);
      expectProtected(res, what);
      if (status >= 400) expect(res.json(), what).toEqual(expect.objectContaining({ message: expect.any(String) }));
    }
  });

  it('mark every response to a keyed request no-store, errors included', async () => {
    for (const request of [
      { method: 'GET' as const, url: '/api/bookings', token: read },
      { method: 'GET' as const, url: '/api/bookings/999999', token: read },
      { method: 'POST' as const, url: '/api/bookings/create', token: read, payload: {} },
      { method: 'POST' as const, url: '/api/bookings/create', token: edit, payload: {} },
      { method: 'GET' as const, url: '/api/users?include[]=allUsers&include[]=email', token: read },
    ]) {
      const res = await ctx.request(request);
      expect(res.headers['cache-control'], `${request.method} ${request.url} -> ${res.statusCode}`).toBe('no-store');
    }
  });

  it('are on 429 responses', async () => {
    const limited = await createTestContext({ env: { RATE_LIMIT: '1' } });
    try {
      expect((await limited.request({ method: 'GET', url: '/api/positions' })).statusCode).toBe(200);
      const res = await limited.request({ method: 'GET', url: '/api/positions' });
      expect(res.statusCode).toBe(429);
      expectProtected(res, '429');
    } finally {
      await limited.close();
    }
  });

  it('are on 500 responses', async () => {
    const broken = await createTestContext();
    await broken.services.db.close();
    const res = await broken.request({ method: 'GET', url: '/api/positions' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal server error' });
    expectProtected(res, '500');
    await broken.app.close();
  });
});

describe('CORS', () => {
  let ctx: TestContext;
  let read: string;
  let edit: string;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(division);
    read = await ctx.key('read');
    edit = await ctx.key('edit');
  });
  afterAll(() => ctx.close());

  const origin = { origin: 'https://division.example' };

  it('allows any origin on the public GETs', async () => {
    for (const url of ['/api/positions', '/api/bookings', '/api/bookings/1']) {
      const res = await ctx.request({ method: 'GET', url, headers: origin });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['access-control-allow-origin'], url).toBe('*');
    }
  });

  it('sends no Access-Control-Allow-Origin on keyed routes, whatever the response', async () => {
    const requests = [
      { method: 'GET' as const, url: '/api/users?include[]=allUsers', token: read },
      { method: 'GET' as const, url: '/api/users?include[]=allUsers' },
      { method: 'GET' as const, url: '/api/roles', token: read },
      { method: 'GET' as const, url: '/api/endorsements/visiting', token: read },
      {
        method: 'POST' as const,
        url: '/api/bookings/create',
        token: edit,
        payload: { cid: 1000001, date: '20/3/2026', start_at: '10:00', end_at: '11:00', position: 'EKCH_TWR' },
      },
      { method: 'POST' as const, url: '/api/bookings/create', payload: {} },
      { method: 'PATCH' as const, url: '/api/bookings/1', token: edit, payload: { tag: 1 } },
      { method: 'DELETE' as const, url: '/api/bookings/1', token: edit },
    ];
    for (const request of requests) {
      const res = await ctx.request({ ...request, headers: origin });
      const what = `${request.method} ${request.url} -> ${res.statusCode}`;
      expect(res.statusCode, what).toBeLessThan(500);
      expect(res.headers['access-control-allow-origin'], what).toBeUndefined();
    }
  });

  it('does not let a browser preflight a write from another origin', async () => {
    for (const [url, method] of [
      ['/api/bookings/create', 'POST'],
      ['/api/bookings/1', 'PATCH'],
      ['/api/bookings/1', 'DELETE'],
    ] as const) {
      const res = await ctx.request({
        method: 'OPTIONS',
        url,
        headers: { ...origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
      });
      const allowed = res.headers['access-control-allow-methods'] ?? '';
      const grants = res.headers['access-control-allow-origin'] !== undefined && allowed.includes(method);
      expect(grants, `${method} ${url}: ${res.statusCode} ${JSON.stringify(res.headers)}`).toBe(false);
    }
  });
});

describe('API keys', () => {
  it('refuse an expired key with 401 from the moment it expires, on public and keyed routes', async () => {
    const ctx = await createTestContext({ now: NOW });
    try {
      const { token } = await ctx.services.keys.create({ name: 'short-lived', scope: 'edit', expiresAt: NOW + 60_000 });
      expect((await ctx.request({ method: 'GET', url: '/api/users?include[]=allUsers', token })).statusCode).toBe(200);
      ctx.setNow(NOW + 59_999);
      expect((await ctx.request({ method: 'GET', url: '/api/positions', token })).statusCode).toBe(200);
      ctx.setNow(NOW + 60_000);
      for (const url of ['/api/positions', '/api/bookings', '/api/users?include[]=allUsers']) {
        const res = await ctx.request({ method: 'GET', url, token });
        expect(res.statusCode, url).toBe(401);
        expect(res.json()).toEqual({ message: 'Invalid API key' });
        expect(res.headers['www-authenticate']).toBe('Bearer realm="sector", error="invalid_token"');
      }
    } finally {
      await ctx.close();
    }
  });

  it('refuse a key whose expiry was set by the CLI once that moment has passed, in a running server', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const server = await startServer(env);
    try {
      const key = JSON.parse(runCli(['create:apikey', '--name', 'temp', '--read-only', '--expires-in', '30m', '--json'], env).stdout);
      const get = () => fetch(`${server.url}/api/users?include[]=allUsers`, { headers: { authorization: `Bearer ${key.token}` } });
      expect((await get()).status).toBe(200);
      const listed = JSON.parse(runCli(['apikey:list', '--json'], env).stdout)[0];
      expect(listed).toMatchObject({ name: 'temp', status: 'active' });
      // Half an hour later: moved by rewriting the stored expiry, as the server's clock cannot be.
      const { openDatabase } = await import('../../../../src/core/db/connection.js');
      const db = openDatabase(env.DATABASE_URL);
      await db.kysely
        .updateTable('api_keys')
        .set({ expires_at: Date.now() - 1 })
        .where('id', '=', key.id)
        .execute();
      await db.close();
      const res = await get();
      expect(res.status).toBe(401);
      expect(JSON.parse(runCli(['apikey:list', '--json'], env).stdout)[0]).toMatchObject({ status: 'expired' });
    } finally {
      await server.stop();
    }
  });
});

describe.runIf(TEST_DIALECT === 'sqlite')('tokens in logs and error bodies', () => {
  it('never appear, at LOG_LEVEL=trace, on success, refusal or server error paths', async () => {
    const file = path.join(tempDir('sector-logs-'), 'sector.db');
    const env = { DATABASE_URL: `sqlite:${file}` };
    await importData(env, division);
    const edit = await createKey(env, 'log-edit');
    const read = await createKey(env, 'log-read', 'read-only');
    // The secret itself may contain '_' (base64url), so it is cut by the format, not by splitting.
    const secretOf = (token: string) => parseToken(token)!.secret;
    // Wrong tokens carry secrets of their own: a near miss of a real one, and one for a real id.
    const nearMiss = `${edit.slice(0, -1)}${edit.endsWith('A') ? 'B' : 'A'}`;
    const foreign = `sector_${parseToken(edit)!.id}_${'Q'.repeat(43)}`;
    const secrets = [edit, read, nearMiss, foreign].map(secretOf);

    const server = await startServer({ ...env, LOG_LEVEL: 'trace' });
    const bodies: string[] = [];
    const call = async (method: string, url: string, token: string | null, body?: string, contentType = 'application/json') => {
      const headers: Record<string, string> = {};
      if (token !== null) headers.authorization = token.startsWith('sector_') ? `Bearer ${token}` : token;
      if (body !== undefined) headers['content-type'] = contentType;
      const res = await fetch(`${server.url}${url}`, { method, headers, ...(body === undefined ? {} : { body }) });
      bodies.push(`${res.status} ${JSON.stringify([...res.headers])} ${await res.text()}`);
      return res.status;
    };

    try {
      expect(await call('GET', '/api/positions', edit)).toBe(200);
      expect(await call('GET', '/api/users?include[]=allUsers&include[]=email', read)).toBe(200);
      expect(await call('GET', '/api/nowhere', edit)).toBe(404);
      expect(await call('PUT', '/api/positions', edit)).toBe(405);
      expect(await call('POST', '/api/bookings/create', read, '{}')).toBe(403);
      expect(await call('POST', '/api/bookings/create', edit, '{"cid":')).toBe(400);
      expect(await call('POST', '/api/bookings/create', edit, JSON.stringify({ cid: edit, position: read }))).toBe(422);
      expect(await call('POST', '/api/bookings/create', edit, `cid=${encodeURIComponent(edit)}`, 'application/x-www-form-urlencoded')).toBe(
        422,
      );
      for (const wrong of [nearMiss, foreign, secretOf(edit), `Token ${edit}`, `Bearer ${edit} extra`, `bearer ${nearMiss}`]) {
        expect(await call('GET', '/api/users?include[]=allUsers', wrong)).toBe(401);
        expect(await call('GET', '/api/positions', wrong)).toBe(401);
      }

      // A server-side failure: another connection holds the write lock past the server's retries.
      await whileLocked(file, async () => {
        const status = await call(
          'POST',
          '/api/bookings/create',
          edit,
          JSON.stringify({ cid: 1000001, date: '1/1/2030', start_at: '10:00', end_at: '11:00', position: 'EKCH_TWR' }),
        );
        expect(status).toBe(503);
        expect(bodies.at(-1)).toMatch(/"retry-after","1"/);
      });
    } finally {
      await server.stop();
    }

    const logs = server.logs();
    // The log really holds these requests, and the failure in full.
    expect(logs).toContain('/api/users?include[]=allUsers&include[]=email');
    expect(logs).toContain('SQLITE_BUSY');
    expect(logs).toContain('database busy');
    for (const secret of secrets) {
      expect(logs).not.toContain(secret);
      for (const body of bodies) expect(body).not.toContain(secret);
    }
  }, 30_000);
});
