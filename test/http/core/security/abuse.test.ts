// Abuse limits: request rate per key and per IP, body, header and query sizes, and clients
// that send half a request and stall. Each limit gets a clean response, and none needs a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, freshDatabaseUrl, type TestContext } from '../../../support/context.js';
import { buildBooking, buildDivision } from '../../../support/factories.js';
import { startServer, type ServerProcess } from '../../../support/processes.js';
import { createKey } from '../../../support/seed.js';
import { connect, sleep } from '../../../support/raw-http.js';

describe('rate limiting', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { RATE_LIMIT: '5' } });
  });
  afterAll(() => ctx.close());

  const get = (ip: string, token?: string, url = '/api/positions') =>
    ctx.app.inject({ method: 'GET', url, remoteAddress: ip, headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('returns 429 with Retry-After and RateLimit headers once an IP has used its budget; other IPs are unaffected', async () => {
    const first = await get('10.0.0.1');
    expect(first.statusCode).toBe(200);
    expect(first.headers['ratelimit-limit']).toBe('5');
    expect(first.headers['ratelimit-remaining']).toBe('4');
    expect(Number(first.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(first.headers['x-ratelimit-limit']).toBe('5');
    expect(first.headers['x-ratelimit-remaining']).toBe('4');
    for (let i = 0; i < 4; i++) expect((await get('10.0.0.1')).statusCode).toBe(200);

    const limited = await get('10.0.0.1');
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-remaining']).toBe('0');
    expect(limited.headers['x-ratelimit-remaining']).toBe('0');
    expect(limited.headers['content-type']).toMatch(/^application\/json/);
    expect(limited.json()).toEqual({ message: expect.stringMatching(/^Rate limit of 5 requests per minute exceeded; retry in \d+ s$/) });
    expect(limited.headers['x-content-type-options']).toBe('nosniff');

    expect((await get('10.0.0.2')).statusCode).toBe(200);
  });

  it('gives each API key its own budget, shared across the IPs it is used from', async () => {
    const token = await ctx.key('read');
    const other = await ctx.key('read');
    // 10.0.1.1 has spent its own budget without a key; the key still has all of its own.
    for (let i = 0; i < 5; i++) await get('10.0.1.1');
    expect((await get('10.0.1.1')).statusCode).toBe(429);
    for (const ip of ['10.0.1.1', '10.0.1.2', '10.0.1.3', '10.0.1.4', '10.0.1.5']) {
      const res = await get(ip, token, '/api/users?include[]=allUsers');
      expect(res.statusCode).toBe(200);
    }
    const limited = await get('10.0.1.6', token, '/api/users?include[]=allUsers');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['cache-control']).toBe('no-store');
    expect((await get('10.0.1.6', other, '/api/users?include[]=allUsers')).statusCode).toBe(200);
  });

  it('counts requests with a missing or wrong key against the IP, so guessing keys is limited too', async () => {
    const wrong = `sector_${'0'.repeat(16)}_${'A'.repeat(43)}`;
    for (let i = 0; i < 5; i++) {
      const res = await get('10.0.2.1', wrong);
      expect(res.statusCode).toBe(401);
    }
    expect((await get('10.0.2.1', wrong)).statusCode).toBe(429);
    for (let i = 0; i < 5; i++) expect((await get('10.0.2.2', undefined, '/api/users?include[]=allUsers')).statusCode).toBe(401);
    expect((await get('10.0.2.2', undefined, '/api/users?include[]=allUsers')).statusCode).toBe(429);
  });

  it('limits writes per key as well', async () => {
    const token = await ctx.key('edit');
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/bookings/create',
        remoteAddress: '10.0.3.1',
        headers: { authorization: `Bearer ${token}` },
        payload: {},
      });
      statuses.push(res.statusCode);
    }
    expect(statuses).toEqual([422, 422, 422, 422, 422, 429]);
  });
});

describe('query strings of any size', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    token = await ctx.key('read');
  });
  afterAll(() => ctx.close());

  const cases: Array<[string, () => string]> = [
    ['100 000 parameters', () => Array.from({ length: 100_000 }, (_, i) => `p${i}=${i}`).join('&')],
    ['10 000 include[] entries', () => Array.from({ length: 10_000 }, () => 'include[]=name').join('&')],
    ['an index far past the array limit', () => 'include[999999]=allUsers'],
    ['20 000 comma-separated relations', () => `include=${Array.from({ length: 20_000 }, () => 'allUsers').join(',')}`],
    ['brackets nested 500 deep', () => `include${'[a]'.repeat(500)}=allUsers`],
    ['a 1 MB value', () => `include=${'a'.repeat(1_000_000)}`],
    ['unbalanced brackets and stray percent signs', () => 'include[[[]=a&include]]]=b&%&%%&include[=c'],
  ];

  it.each(cases)('responds to %s with a 4xx or 200 in JSON, never a 5xx', async (_name, query) => {
    for (const url of [`/api/users?${query()}`, `/api/bookings?${query()}`]) {
      const res = await ctx.request({ method: 'GET', url, token });
      expect(res.statusCode, url.slice(0, 80)).toBeLessThan(500);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      if (res.statusCode >= 400) expect(res.json()).toEqual(expect.objectContaining({ message: expect.any(String) }));
    }
  });

  it('refuses a query flooded past the parameter limit instead of dropping what comes after it', async () => {
    const flood = Array.from({ length: 5000 }, (_, i) => `x${i}=1`).join('&');
    const res = await ctx.request({ method: 'GET', url: `/api/users?include[]=bogus&${flood}`, token });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Too many query parameters: at most 100 are accepted' });
  });
});

describe('parameters past the parser limits', () => {
  let ctx: TestContext;
  let edit: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.load(
      buildDivision({
        bookings: [buildBooking(), buildBooking({ time_start: '2030-03-13 10:00:00', time_end: '2030-03-13 12:00:00' })],
      }),
    );
    edit = await ctx.key('edit');
  });
  afterAll(() => ctx.close());

  const junk = (n: number) => Array.from({ length: n }, (_, i) => `junk${i}=1`).join('&');

  it('returns 400 when junk parameters would push limit=1 out of the query, never the whole list', async () => {
    const res = await ctx.request({ method: 'GET', url: `/api/bookings?${junk(120)}&limit=1` });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ message: 'Too many query parameters: at most 100 are accepted' });
  });

  it('still reads the 100th parameter: every unknown one before it is named, none cut off', async () => {
    const res = await ctx.request({ method: 'GET', url: `/api/bookings?${junk(99)}&limit=1` });
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(Array.from({ length: 99 }, (_, i) => `junk${i}`));
  });

  it('returns 400 for more values of one parameter than accepted, however they are spelled', async () => {
    const many = (n: number, one: string) => Array.from({ length: n }, () => one).join('&');
    // (include[50]=name is one value, not too many: see hardening-http.test.ts.)
    for (const query of [many(51, 'include[]=name'), many(51, 'include=name'), `include=${Array(51).fill('name').join(',')}`]) {
      const res = await ctx.request({ method: 'GET', url: `/api/users?include[]=allUsers&${query}`, token: edit });
      expect(res.statusCode, query.slice(0, 40)).toBe(400);
      expect(res.json()).toEqual({ message: 'Too many values for one query parameter: at most 50 are accepted' });
    }
    const fifty = await ctx.request({ method: 'GET', url: `/api/users?${many(49, 'include[]=name')}&include[]=allUsers`, token: edit });
    expect(fifty.statusCode).toBe(200);
  });

  const postForm = (payload: string) =>
    ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload,
    });

  it('returns 400 for a form body with more fields than accepted, instead of dropping the last ones unseen', async () => {
    const booking = 'cid=1000001&date=14/03/2030&start_at=10:00&end_at=12:00&position=EKCH_TWR';
    const res = await postForm(`${junk(60)}&${booking}`);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ message: 'Too many form fields: at most 50 are accepted' });

    const many = await postForm(`${booking}&${Array.from({ length: 21 }, () => 'tag[]=1').join('&')}`);
    expect(many.statusCode).toBe(400);
    expect(many.json()).toEqual({ message: 'Too many values for one form field: at most 20 are accepted' });

    // Within the limits, the same fields are a booking.
    expect((await postForm(booking)).statusCode).toBe(201);
  });
});

describe('limits of a listening server', () => {
  const env = { DATABASE_URL: freshDatabaseUrl(), REQUEST_TIMEOUT_MS: '1000' };
  let server: ServerProcess;
  let token: string;
  beforeAll(async () => {
    server = await startServer(env);
    token = await createKey(env, 'abuse');
  });
  afterAll(() => server.stop());

  /**
   * Sends a request whose body is too large, a chunk at a time, and stops as soon as the server
   * responds: writing on after that only makes the server reset the connection (a client library
   * fails with EPIPE), which may swallow the response. Returns its status line and JSON body.
   */
  async function sendOversized(head: string, chunks: Iterable<string>): Promise<{ status: string; body: unknown }> {
    const conn = await connect(server.url);
    await conn.write(head);
    const responded = () => conn.isClosed() || /\r\n\r\n/.test(conn.received());
    for (const chunk of chunks) {
      if (responded()) break;
      await conn.write(chunk);
      await Promise.race([conn.waitFor(/\r\n\r\n/), sleep(20)]);
    }
    const raw = await conn.waitFor(/\r\n\r\n\{.*\}/s);
    conn.destroy();
    const [headers, body = ''] = raw.split('\r\n\r\n');
    return { status: headers!.split('\r\n')[0]!, body: JSON.parse(body) };
  }
  const requestHead = (contentType: string, framing: string) =>
    `POST /api/bookings/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: ${contentType}\r\n${framing}\r\n\r\n`;
  function* repeat(chunk: string, times: number) {
    for (let i = 0; i < times; i++) yield chunk;
  }

  it('refuses bodies over 64 KiB with 413, JSON, form and chunked alike', async () => {
    // A declared length over the limit is refused on the headers alone.
    expect(await sendOversized(requestHead('application/json', `Content-Length: ${1024 * 1024}`), [])).toEqual({
      status: 'HTTP/1.1 413 Payload Too Large',
      body: { message: 'Request body is too large (limit 64 KiB)' },
    });

    const formResponse = await sendOversized(requestHead('application/x-www-form-urlencoded', `Content-Length: ${100 * 1024}`), []);
    expect(formResponse.status).toBe('HTTP/1.1 413 Payload Too Large');

    // No Content-Length: the limit is counted while the body streams in.
    const piece = 'x'.repeat(16 * 1024);
    const chunked = await sendOversized(
      requestHead('application/json', 'Transfer-Encoding: chunked'),
      repeat(`${piece.length.toString(16)}\r\n${piece}\r\n`, 64),
    );
    expect(chunked).toEqual({ status: 'HTTP/1.1 413 Payload Too Large', body: { message: expect.stringContaining('too large') } });

    expect((await fetch(`${server.url}/api/positions`)).status).toBe(200);
  });

  it('responds to headers over 16 KiB with 431 from the HTTP layer', async () => {
    for (const request of [
      `GET /api/positions HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`,
      `GET /api/positions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`,
      `GET /api/positions?${'a=1&'.repeat(5000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    ]) {
      const conn = await connect(server.url);
      await conn.write(request);
      const response = await conn.waitFor(/^HTTP\/1\.1 \d{3}/);
      expect(response).toMatch(/^HTTP\/1\.1 431 /);
      conn.destroy();
    }
    // The server is unharmed.
    expect((await fetch(`${server.url}/api/positions`)).status).toBe(200);
  });

  it('responds to a query string short enough for the HTTP layer but over the parameter limit from the application', async () => {
    const res = await fetch(`${server.url}/api/users?${'include[]=name&'.repeat(600)}`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: 'Too many query parameters: at most 100 are accepted' });
    expect((await fetch(`${server.url}/api/positions`)).status).toBe(200);
  });

  it('closes a connection whose headers stop half-way', async () => {
    const conn = await connect(server.url);
    await conn.write('GET /api/positions HTTP/1.1\r\nHost: x\r\n');
    await conn.closed;
    expect(conn.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection whose body never arrives', async () => {
    const conn = await connect(server.url);
    await conn.write(
      `POST /api/bookings/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"cid": 1`,
    );
    await conn.closed;
    expect(conn.received()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a connection that trickles its headers one byte at a time', async () => {
    const conn = await connect(server.url);
    await conn.write('GET /api/positions HTTP/1.1\r\nHost: x\r\n');
    // Each byte arrives well within any idle timeout; only a limit on the whole request stops it.
    while (!conn.isClosed()) {
      await conn.write('X');
      await sleep(100);
    }
    expect(conn.received()).toMatch(/^HTTP\/1\.1 408 /);
    expect((await fetch(`${server.url}/api/positions`)).status).toBe(200);
  });
});
