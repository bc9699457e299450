// Replays what existing Control Center clients send — division websites (browser fetch) and
// Discord bots (Python aiohttp) — against a real listening server, and checks what they read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildDemoDivision } from '../../../../src/features/demo/division.js';
import { createTestContext, type TestContext } from '../../../support/context.js';

const NOW = Date.UTC(2026, 10, 21, 12, 0, 0);

// aiohttp (params as a list of pairs) and URLSearchParams both percent-encode the brackets.
const BOT_QUERIES = [
  'include%5B%5D=roles',
  'include%5B%5D=training',
  'include%5B%5D=endorsements',
  'include%5B%5D=allUsers&include%5B%5D=activeAreas&include%5B%5D=endorsements&onlyAtcActive=1',
];
const AIOHTTP_HEADERS = { accept: 'application/json', 'accept-encoding': 'gzip, deflate', 'user-agent': 'Python/3.11 aiohttp/3.9.5' };
const BROWSER_HEADERS = { accept: '*/*', origin: 'https://division.example', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64)' };
const PUBLIC_BOOKING_FIELDS = ['id', 'callsign', 'time_start', 'time_end', 'training', 'event', 'exam', 'created_at', 'updated_at'];

async function listening(ctx: TestContext): Promise<string> {
  await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

function checkBotUser(user: Record<string, unknown>, query: string) {
  expect(user.id).toEqual(expect.any(Number));
  expect(user.rating).toEqual(expect.any(String));
  if (query.includes('roles')) {
    for (const value of Object.values(user.roles as object)) expect(value === null || Array.isArray(value)).toBe(true);
  }
  if (query.includes('endorsements')) {
    const e = user.endorsements as { examiner: Array<{ areas: string[] }>; visiting: unknown[] };
    expect(Array.isArray(e.visiting)).toBe(true);
    for (const x of e.examiner) expect(x.areas).toEqual(expect.arrayContaining([expect.any(String)]));
  }
  if (query.includes('training')) {
    for (const t of user.training as Array<Record<string, unknown>>) {
      expect(t.status).toEqual(expect.any(Number));
      expect(t.area).toEqual(expect.any(String));
      expect(t.ratings).toEqual(expect.any(Array));
    }
  }
  if (query.includes('activeAreas')) {
    const areas = user.atc_active_areas as Record<string, boolean>;
    for (const [name, active] of Object.entries(areas)) {
      expect(name).toBe(name.toLowerCase());
      expect(typeof active).toBe('boolean');
    }
  }
}

describe('Control Center compatibility profile (API_COMPAT=controlcenter)', () => {
  let ctx: TestContext;
  let base: string;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: { API_COMPAT: 'controlcenter', DIVISION: 'EUD', SUBDIVISIONS: 'SCA' } });
    await ctx.load(buildDemoDivision({ now: NOW, seed: 7 }));
    token = await ctx.key('edit');
    base = await listening(ctx);
  });
  afterAll(() => ctx.close());

  it('serves division websites: public bookings in response.data, reduced form', async () => {
    const res = await fetch(`${base}/api/bookings`, { headers: BROWSER_HEADERS });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const body = (await res.json()) as { data: Array<Record<string, unknown>> };
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.length).toBeGreaterThan(50);
    for (const b of body.data) expect(Object.keys(b)).toEqual(PUBLIC_BOOKING_FIELDS);
  });

  it.each(BOT_QUERIES)('serves Discord bots: GET /api/users?%s in response.data', async (query) => {
    const res = await fetch(`${base}/api/users?${query}`, { headers: { ...AIOHTTP_HEADERS, authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { data: Array<Record<string, unknown>> };
    expect(Object.keys(body)).toEqual(['data']);
    expect(body.data.length).toBeGreaterThan(0);
    for (const user of body.data) checkBotUser(user, query);
    if (query.includes('onlyAtcActive=1')) for (const user of body.data) expect(user.atc_active).toBe(true);
  });

  it('wraps one booking as {"booking": …} and responds to a create with 200 {"success": …}', async () => {
    const cid = String(await someMemberId());
    const created = await fetch(`${base}/api/bookings/create`, {
      method: 'POST',
      headers: { ...AIOHTTP_HEADERS, authorization: `Bearer ${token}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ cid, date: '25/11/2026', start_at: '03:00', end_at: '04:00', position: 'EKCH_DEL' }).toString(),
    });
    const body = (await created.json()) as Record<string, unknown>;
    expect(created.status).toBe(200);
    expect(body).toMatchObject({ success: 'Booking created', booking: { callsign: 'EKCH_DEL', source: 'CC' } });
    expect(body).not.toHaveProperty('message');
    const id = (body.booking as { id: number }).id;

    const one = await fetch(`${base}/api/bookings/${id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(await one.json()).toEqual({ booking: body.booking });
  });

  it('changes nothing else: errors, updates and deletes keep their shapes', async () => {
    const bad = await fetch(`${base}/api/bookings/create`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ message: expect.any(String), errors: expect.any(Object) });
    const noKey = await fetch(`${base}/api/users?include%5B%5D=roles`);
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({ message: expect.any(String) });
  });

  async function someMemberId(): Promise<number> {
    const res = await ctx.request({ method: 'GET', url: '/api/users?include[]=allUsers', token });
    return res.json().data[0].id;
  }
});

describe('per-key profile', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: { DIVISION: 'EUD' } });
    await ctx.load(buildDemoDivision({ now: NOW, seed: 7 }));
  });
  afterAll(() => ctx.close());

  it('is off by default: bare arrays, 201 with message', async () => {
    const token = await ctx.key('read');
    const users = await ctx.request({ method: 'GET', url: '/api/users?include%5B%5D=roles', token });
    expect(Array.isArray(users.json())).toBe(true);
    const bookings = await ctx.request({ method: 'GET', url: '/api/bookings' });
    expect(Array.isArray(bookings.json())).toBe(true);
  });

  it('is switched on by a key created with --compat controlcenter, for that key only', async () => {
    const cc = await ctx.key('read', { compat: 'controlcenter' });
    const plain = await ctx.key('read');
    const wrapped = (await ctx.request({ method: 'GET', url: '/api/users?include[]=roles', token: cc })).json();
    const bare = (await ctx.request({ method: 'GET', url: '/api/users?include[]=roles', token: plain })).json();
    expect(wrapped).toEqual({ data: bare });
    const wrappedBookings = (await ctx.request({ method: 'GET', url: '/api/bookings', token: cc })).json();
    const bareBookings = (await ctx.request({ method: 'GET', url: '/api/bookings', token: plain })).json();
    expect(wrappedBookings).toEqual({ data: bareBookings });
    // The public view follows the server's setting.
    expect(Array.isArray((await ctx.request({ method: 'GET', url: '/api/bookings' })).json())).toBe(true);
  });

  it("wins over the server's setting for keyed calls", async () => {
    const server = await createTestContext({ now: NOW, env: { API_COMPAT: 'controlcenter' } });
    await server.load(buildDemoDivision({ now: NOW, seed: 7 }));
    const none = await server.key('read', { compat: 'none' });
    const inherit = await server.key('read');
    expect(Array.isArray((await server.request({ method: 'GET', url: '/api/bookings', token: none })).json())).toBe(true);
    expect((await server.request({ method: 'GET', url: '/api/bookings', token: inherit })).json()).toHaveProperty('data');
    await server.close();
  });

  it('documents both shapes in OpenAPI', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json();
    const usersOk = doc.paths['/api/users'].get.responses['200'].content['application/json'].schema;
    expect(JSON.stringify(usersOk)).toContain('"data"');
    expect(doc.paths['/api/bookings/create'].post.responses['200'].content['application/json'].schema.properties).toHaveProperty('success');
    expect(doc.paths['/api/bookings/create'].post.responses['201'].content['application/json'].schema.properties).toHaveProperty('message');
  });
});
