// Responses given outside the application's own handlers, to requests no HTTP client library would
// send: an unknown method, a request shaped for smuggling, a missing Host, headers too large or too
// slow, a request arriving while the server shuts down, two Authorization headers, and a client
// that hangs up half-way through its body. Each gets a response like every other response (JSON
// {"message"} with the same protective headers, Retry-After on a 503) or not at all, and none is
// mistaken for a failing database.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../../support/context.js';
import { startServer, type ServerProcess } from '../../../support/processes.js';
import { createKey } from '../../../support/seed.js';
import { connect, sleep } from '../../../support/raw-http.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

function parseResponse(raw: string): RawResponse {
  const split = raw.indexOf('\r\n\r\n');
  const [statusLine, ...lines] = raw.slice(0, split).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine!)?.[1]), headers, body: raw.slice(split + 4) };
}

/** Sends raw bytes and reads until the server closes the connection. */
async function rawExchange(url: string, request: string): Promise<RawResponse> {
  const conn = await connect(url);
  await conn.write(request);
  await Promise.race([conn.closed, sleep(10_000)]);
  conn.destroy();
  expect(conn.received(), JSON.stringify(request.slice(0, 80))).toMatch(/^HTTP\/1\.1 \d{3} /);
  return parseResponse(conn.received());
}

/** JSON {"message"} with the protective headers; no-store, except where the application's own rule applies. */
function expectLikeEveryResponse(response: RawResponse, what: string, cacheControl = 'no-store'): void {
  expect(response.headers['content-type'], what).toMatch(/^application\/json/);
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
  expect(response.headers['x-frame-options'], what).toBe('DENY');
  expect(response.headers['cache-control'], what).toBe(cacheControl);
  const body = JSON.parse(response.body) as Record<string, unknown>;
  expect(Object.keys(body), what).toEqual(['message']);
  expect(body.message, what).toEqual(expect.any(String));
  expect(Number(response.headers['content-length']), what).toBe(Buffer.byteLength(response.body));
}

describe('requests the HTTP layer refuses', () => {
  const env = { DATABASE_URL: freshDatabaseUrl(), REQUEST_TIMEOUT_MS: '1000' };
  let server: ServerProcess;
  let edit: string;
  beforeAll(async () => {
    server = await startServer(env);
    edit = await createKey(env, 'client-errors');
  });
  afterAll(() => server.stop());

  // Write requests carry the key, so that they get as far as their body.
  const cases: Array<[string, (key: string) => string, number]> = [
    ['an unknown method', () => 'FOO /api/positions HTTP/1.1\r\nHost: x\r\n\r\n', 400],
    ["CONNECT, a proxy's method", () => 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 501],
    [
      'Content-Length beside Transfer-Encoding',
      (key) =>
        `POST /api/bookings/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
      400,
    ],
    [
      'two different Content-Lengths',
      (key) =>
        `POST /api/bookings/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef`,
      400,
    ],
    [
      'a malformed chunk size',
      (key) =>
        `POST /api/bookings/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${key}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n`,
      400,
    ],
    ['a control character in a header', () => 'GET /api/positions HTTP/1.1\r\nHost: x\r\nX-Evil: a\u0001b\r\n\r\n', 400],
    ['a malformed request line', () => 'GET /api/positions HTTP/9.z\r\nHost: x\r\n\r\n', 400],
    ['no Host header', () => 'GET /api/positions HTTP/1.1\r\nConnection: close\r\n\r\n', 400],
    ['headers over 16 KiB', () => `GET /api/positions HTTP/1.1\r\nHost: x\r\nX-Padding: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ];

  it.each(cases)('responds to %s like to every other request', async (what, request, status) => {
    const response = await rawExchange(server.url, request(edit));
    expect(response.status, what).toBe(status);
    expectLikeEveryResponse(response, what);
  });

  it('responds to headers that stop half-way with 408, like every other response', async () => {
    const response = await rawExchange(server.url, 'GET /api/positions HTTP/1.1\r\nHost: x\r\n');
    expect(response.status).toBe(408);
    expectLikeEveryResponse(response, '408');
  });

  it('responds to a body that never arrives with 408, like every other response', async () => {
    const response = await rawExchange(
      server.url,
      `POST /api/bookings/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${edit}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"cid": 1`,
    );
    expect(response.status).toBe(408);
    expectLikeEveryResponse(response, '408');
  });

  it('still accepts an HTTP/1.0 request without Host, as HTTP/1.0 allows', async () => {
    const response = await rawExchange(server.url, 'GET /api/positions HTTP/1.0\r\n\r\n');
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ data: [] });
  });

  it('refuses two Authorization headers, valid or not, instead of using the first', async () => {
    const garbage = `sector_${'0'.repeat(16)}_${'A'.repeat(43)}`;
    for (const [first, second] of [
      [edit, garbage],
      [garbage, edit],
      [edit, edit],
      [edit, ''],
    ]) {
      for (const path of ['/api/positions', '/api/users?include=allUsers']) {
        const response = await rawExchange(
          server.url,
          `GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${first}\r\nauthorization: Bearer ${second}\r\nConnection: close\r\n\r\n`,
        );
        const what = `${path} with ${first === edit ? 'the key' : 'garbage'} then ${second === edit ? 'the key' : second === '' ? 'an empty one' : 'garbage'}`;
        expect(response.status, what).toBe(400);
        expect(JSON.parse(response.body), what).toEqual({ message: 'Send one Authorization header, not several' });
        expect(response.headers['www-authenticate'], what).toBe('Bearer realm="sector", error="invalid_request"');
        // Returned by the application: no key was accepted, so its rule for keyless responses holds.
        expectLikeEveryResponse(response, what, 'no-cache');
      }
    }
    // One header still works.
    const one = await rawExchange(
      server.url,
      `GET /api/users?include=allUsers HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${edit}\r\nConnection: close\r\n\r\n`,
    );
    expect(one.status).toBe(200);
  });

  it('does not take a client that hangs up mid-body for a database outage', async () => {
    const logged = server.logs().length;
    for (let i = 0; i < 3; i++) {
      const conn = await connect(server.url);
      await conn.write(
        `POST /api/bookings/create HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${edit}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"cid": 1`,
      );
      // The request has been routed and authenticated; its body is being read.
      await sleep(200);
      conn.destroy();
    }
    await sleep(300);
    const lines = server
      .logs()
      .slice(logged)
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; res?: { statusCode: number } });
    expect(lines.filter((l) => /database/i.test(l.msg))).toEqual([]);
    expect(lines.filter((l) => l.res?.statusCode === 503)).toEqual([]);
    expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    expect(lines.filter((l) => l.msg === 'client closed the connection before the whole request arrived')).toHaveLength(3);
    // The server is unharmed.
    expect((await fetch(`${server.url}/api/positions`)).status).toBe(200);
  });
});

describe('a request that arrives while the server shuts down', () => {
  it('gets 503 with Retry-After, like every other response', async () => {
    const server = await startServer({ DATABASE_URL: freshDatabaseUrl() });
    const conn = await connect(server.url);
    // A request under way (its headers half sent) keeps its connection open through the shutdown.
    await conn.write('GET /api/positions HTTP/1.1\r\nHost: x\r\n');
    // The server must have read those bytes before it shuts down. It reads every connection that is
    // readable when it looks, so once it has responded to a request sent after them, it has them.
    expect((await fetch(`${server.url}/api/positions`)).status).toBe(200);
    const stopped = server.stop('SIGTERM');
    for (let i = 0; i < 100 && !server.logs().includes('"shutting down"'); i++) await sleep(20);
    await sleep(100);
    await conn.write('\r\n');
    await Promise.race([conn.closed, sleep(10_000)]);
    expect(await stopped).toBe(0);
    const response = parseResponse(conn.received());
    expect(response.status).toBe(503);
    expect(response.headers['retry-after']).toMatch(/^\d+$/);
    expect(response.headers.connection).toBe('close');
    expectLikeEveryResponse(response, 'shutdown 503');
  });
});
