import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../support/context.js';
import { buildBooking, buildDivision } from '../../../support/factories.js';

describe('cross-cutting HTTP rules', () => {
  let ctx: TestContext;
  let edit: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    edit = await ctx.key('edit');
  });
  afterAll(() => ctx.close());

  it('responds to unknown routes with JSON 404', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/flights?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ message: 'Route GET /api/flights not found' });
  });

  it('responds to a known path with a wrong method with 405 and Allow', async () => {
    const res = await ctx.request({ method: 'DELETE', url: '/api/positions' });
    expect(res.statusCode).toBe(405);
    expect(res.headers.allow).toBe('GET, HEAD, POST');
    expect(res.json()).toEqual({ message: expect.stringContaining('DELETE') });
  });

  it('refuses a method or path with 405 or 404 before reading the body, whatever the body holds', async () => {
    const bad = { 'content-type': 'application/json' };
    const wrongMethod = await ctx.request({ method: 'POST', url: '/?callsign=EKCH_DEL', headers: bad, payload: 'a=1' });
    expect(wrongMethod.statusCode).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');
    expect(wrongMethod.json()).toEqual({ message: expect.stringContaining('POST') });
    const unknown = await ctx.request({ method: 'PUT', url: '/api/flights', headers: bad, payload: '{' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ message: 'Route PUT /api/flights not found' });
  });

  it('returns 405, not a failed id, for other methods on /api/bookings/create', async () => {
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await ctx.request({ method, url: '/api/bookings/create', token: edit });
      expect(res.statusCode, method).toBe(405);
      expect(res.headers.allow, method).toBe('POST');
    }
  });

  it('responds to malformed JSON with 400, on a create and on an update', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      headers: { 'content-type': 'application/json' },
      payload: '{"cid": 1,',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Malformed JSON body' });
    const patch = await ctx.request({
      method: 'PATCH',
      url: '/api/bookings/1',
      token: edit,
      headers: { 'content-type': 'application/json' },
      payload: '{',
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json()).toEqual({ message: 'Malformed JSON body' });
  });

  it('responds to bodies over 64 KiB with 413', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ position: 'x'.repeat(70_000) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: expect.stringContaining('too large') });
  });

  it('responds to other content types with 415', async () => {
    for (const type of ['text/xml', 'application/xml']) {
      const res = await ctx.request({
        method: 'POST',
        url: '/api/bookings/create',
        token: edit,
        headers: { 'content-type': type },
        payload: '<booking/>',
      });
      expect(res.statusCode, type).toBe(415);
      expect(res.json(), type).toEqual({ message: expect.stringContaining('Unsupported content type') });
    }
  });

  it('responds to invalid fields with 422 and errors per field', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      payload: { cid: 'abc', date: '2026-01-01' },
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.message).toEqual(expect.any(String));
    expect(Object.keys(body.errors)).toEqual(expect.arrayContaining(['cid', 'date', 'start_at', 'end_at', 'position']));
    for (const messages of Object.values(body.errors)) expect(messages).toEqual([expect.any(String)]);
  });

  it('responds to an invalid Api-Variant with 400 on every API route, and changes nothing', async () => {
    const before = (await ctx.request({ method: 'GET', url: '/api/bookings', token: edit })).body;
    const calls = [
      { method: 'GET', url: '/api/users?include[]=allUsers' },
      { method: 'GET', url: '/api/positions' },
      { method: 'GET', url: '/api/bookings' },
      { method: 'GET', url: '/api/roles' },
      {
        method: 'POST',
        url: '/api/bookings/create',
        payload: { cid: 1000001, date: '1/1/2030', start_at: '10:00', end_at: '11:00', position: 'EKCH_TWR' },
      },
    ] as const;
    for (const call of calls) {
      const res = await ctx.request({ ...call, token: edit, headers: { 'api-variant': 'newest' } });
      expect(res.statusCode, call.url).toBe(400);
      expect(res.json(), call.url).toEqual({ message: 'Api-Variant must be "newer" or "older"' });
    }
    expect((await ctx.request({ method: 'GET', url: '/api/bookings', token: edit })).body).toBe(before);
    // Outside the API the header means nothing.
    expect((await ctx.request({ method: 'GET', url: '/health', headers: { 'api-variant': 'newest' } })).statusCode).toBe(200);
  });

  it('publishes an OpenAPI 3.1 document and a docs page', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.paths['/api/positions'].get.responses['200']).toBeDefined();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    const page = await ctx.request({ method: 'GET', url: '/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
  });

  it('sends security headers, and no-store on keyed responses', async () => {
    const open = await ctx.request({ method: 'GET', url: '/api/positions' });
    expect(open.headers['x-content-type-options']).toBe('nosniff');
    expect(open.headers['x-frame-options']).toBe('DENY');
    const keyed = await ctx.request({ method: 'GET', url: '/api/positions', token: edit });
    expect(keyed.headers['cache-control']).toBe('no-store');
  });
});

describe('rate limiting', () => {
  it('returns 429 with Retry-After past the limit, counted per key and per IP', async () => {
    const ctx = await createTestContext({ env: { RATE_LIMIT: '3' } });
    const token = await ctx.key('read');
    for (let i = 0; i < 3; i++) expect((await ctx.request({ method: 'GET', url: '/api/positions' })).statusCode).toBe(200);
    const limited = await ctx.request({ method: 'GET', url: '/api/positions' });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.json()).toEqual({ message: expect.stringContaining('Rate limit') });
    // A key has its own budget.
    expect((await ctx.request({ method: 'GET', url: '/api/positions', token })).statusCode).toBe(200);
    await ctx.close();
  });
});

describe('unexpected failures', () => {
  it('return 500 with a JSON message and no internals', async () => {
    const ctx = await createTestContext();
    await ctx.services.db.close();
    const res = await ctx.request({ method: 'GET', url: '/api/positions' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ message: 'Internal server error' });
    await ctx.app.close();
  });
});

describe('request bodies', () => {
  it('refuses text/plain with 415 too', async () => {
    const ctx = await createTestContext();
    const res = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: await ctx.key('edit'),
      headers: { 'content-type': 'text/plain' },
      payload: 'cid=1',
    });
    expect(res.statusCode).toBe(415);
    await ctx.close();
  });
});

describe('clients that label every request JSON', () => {
  it('may send Content-Type: application/json with an empty body on DELETE', async () => {
    const ctx = await createTestContext();
    await ctx.load(
      buildDivision({ bookings: [buildBooking({ id: 5, time_start: '2099-01-01 10:00:00', time_end: '2099-01-01 11:00:00' })] }),
    );
    const res = await ctx.request({
      method: 'DELETE',
      url: '/api/bookings/5',
      token: await ctx.key('edit'),
      headers: { 'content-type': 'application/json' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Booking deleted', booking: { id: 5, deleted: 1 } });
    await ctx.close();
  });
});

describe('CORS preflight', () => {
  it('lets a browser send a key to a public GET', async () => {
    const ctx = await createTestContext();
    const res = await ctx.request({
      method: 'OPTIONS',
      url: '/api/bookings',
      headers: {
        origin: 'https://division.example',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    });
    expect(res.statusCode).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(String(res.headers['access-control-allow-headers']).toLowerCase()).toContain('authorization');
    await ctx.close();
  });
});
