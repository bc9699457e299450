// The one outbound client against a real local server: a deadline for the whole exchange, the
// body cap in both modes, no redirect followed, every request ended by close(), and failures
// without a response described in one line naming the host.
import http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient, HttpRequestError } from '../../../src/core/http-client.js';
import { listenOnLoopback, type LoopbackServer } from '../../support/loopback-server.js';

describe('outbound HTTP client', () => {
  let loopback: LoopbackServer;
  let base: string;
  let host: string;
  let redirectedTo = 0;
  let endlessClosed = false;
  let endlessWritten = 0;
  const open = new Set<import('node:net').Socket>();
  const answered = new WeakSet<import('node:net').Socket>();
  const received: Array<{ method: string; headers: http.IncomingHttpHeaders; body: string; bytes: Buffer }> = [];

  beforeAll(async () => {
    const server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const body = bytes.toString('utf8');
        received.push({ method: req.method!, headers: req.headers, body, bytes });
        switch (req.url) {
          case '/echo':
            res.writeHead(201, { 'content-type': 'text/plain', 'retry-after': '7' }).end(`got ${body}`);
            return;
          case '/drip': {
            // Headers at once, then a byte every 100 ms for ever: only a deadline on the whole exchange ends it.
            res.writeHead(200);
            const timer = setInterval(() => res.write('x'), 100);
            res.on('close', () => clearInterval(timer));
            return;
          }
          case '/silent':
            return;
          case '/declared':
            res.writeHead(200, { 'content-length': String(100_000) }).end(Buffer.alloc(100_000, 'y'));
            return;
          case '/chunked':
            // No content-length: the cap is found while reading.
            for (let i = 0; i < 10; i++) res.write(Buffer.alloc(10_000, 'z'));
            res.end();
            return;
          case '/endless': {
            res.writeHead(500, { 'content-type': 'text/plain' });
            const chunk = Buffer.alloc(64 * 1024, 'e');
            const pump = () => {
              while (!res.destroyed && res.write(chunk)) endlessWritten += chunk.length;
              if (!res.destroyed) res.once('drain', pump);
            };
            res.on('close', () => (endlessClosed = true));
            pump();
            return;
          }
          case '/stale':
            // A kept-alive connection this server drops when it is used again (as a receiver whose idle
            // timeout ran out just then): the request on it gets no answer.
            if (answered.has(req.socket)) {
              req.socket.destroy();
              return;
            }
            answered.add(req.socket);
            res.writeHead(200).end(req.method);
            return;
          case '/moved':
            res.writeHead(302, { location: '/elsewhere' }).end();
            return;
          case '/elsewhere':
            redirectedTo++;
            res.writeHead(200).end('followed');
            return;
          default:
            res.writeHead(404).end();
        }
      });
    });
    server.on('connection', (socket) => {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    });
    loopback = await listenOnLoopback(server);
    host = `127.0.0.1:${loopback.port}`;
    base = `http://${host}`;
  });
  afterAll(async () => {
    await loopback.close();
  });
  // Each test's clients are closed, so that every test starts without pooled connections.
  const clients: HttpClient[] = [];
  const newClient = () => {
    const client = new HttpClient();
    clients.push(client);
    return client;
  };
  afterEach(async () => {
    for (const client of clients.splice(0)) client.close();
    await expect.poll(() => open.size).toBe(0);
  });

  it('sends the method, headers and body, and returns the status, headers and body', async () => {
    const client = newClient();
    const result = await client.request(`${base}/echo`, {
      method: 'POST',
      headers: { 'x-api-key': 'secret-key', 'content-type': 'text/plain' },
      body: 'hello',
      timeoutMs: 5000,
      maxBytes: 1024,
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.status).toBe(201);
    expect(result.headers.get('retry-after')).toBe('7');
    expect(result.body.toString('utf8')).toBe('got hello');
    expect(received.at(-1)).toMatchObject({
      method: 'POST',
      body: 'hello',
      headers: { 'x-api-key': 'secret-key', 'user-agent': 'Sector' },
    });
  });

  it('sends bytes as they are (a multipart upload), with their length', async () => {
    const client = newClient();
    const bytes = Buffer.from(Array.from({ length: 512 }, (_, i) => i % 256));
    const result = await client.request(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: bytes,
      timeoutMs: 5000,
      maxBytes: 4096,
    });
    expect(result.ok && result.status).toBe(201);
    expect(received.at(-1)!.bytes.equals(bytes)).toBe(true);
    expect(received.at(-1)!.headers['content-length']).toBe('512');
  });

  it('gives up at the deadline, a slowly dripping body included', async () => {
    const client = newClient();
    const started = Date.now();
    const drip = await client.request(`${base}/drip`, { timeoutMs: 500, maxBytes: 1024 * 1024 });
    expect(drip).toEqual({ ok: false, reason: 'timeout', error: `${host}: no response within 500 ms` });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(await client.request(`${base}/silent`, { timeoutMs: 300, maxBytes: 1024 })).toEqual({
      ok: false,
      reason: 'timeout',
      error: `${host}: no response within 300 ms`,
    });
  });

  it('fails past the cap when told to, whether the length is declared or found while reading', async () => {
    const client = newClient();
    for (const path of ['/declared', '/chunked']) {
      expect(await client.request(`${base}${path}`, { timeoutMs: 5000, maxBytes: 10_000, overflow: 'fail' })).toEqual({
        ok: false,
        reason: 'too-large',
        error: `${host}: response larger than 10000 bytes`,
      });
    }
    // Within the cap, the same body is read whole.
    const whole = await client.request(`${base}/chunked`, { timeoutMs: 5000, maxBytes: 100_000 });
    expect(whole.ok && whole.body.length).toBe(100_000);
  });

  it('cuts the body at the cap and keeps the status when told to, and reads no further', async () => {
    const client = newClient();
    const result = await client.request(`${base}/endless`, { timeoutMs: 5000, maxBytes: 1024, overflow: 'truncate' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.status).toBe(500);
    expect(result.body.toString('utf8')).toBe('e'.repeat(1024));
    await expect.poll(() => endlessClosed).toBe(true);
    expect(endlessWritten).toBeLessThan(64 * 1024 * 1024);
  });

  it('keeps a connection for the next request, or closes it at once when asked for a fresh one', async () => {
    const client = newClient();
    await client.request(`${base}/echo`, { timeoutMs: 5000, maxBytes: 1024 });
    await client.request(`${base}/echo`, { timeoutMs: 5000, maxBytes: 1024 });
    await new Promise((r) => setTimeout(r, 50));
    expect(open.size).toBe(1);
    client.close();
    await expect.poll(() => open.size).toBe(0);
    const result = await newClient().request(`${base}/echo`, {
      method: 'POST',
      body: 'x',
      timeoutMs: 5000,
      maxBytes: 1024,
      fresh: true,
    });
    expect(result.ok && result.status).toBe(201);
    expect(received.at(-1)!.headers.connection).toBe('close');
    await expect.poll(() => open.size).toBe(0);
  });

  it('sends an idempotent request once more when its kept-alive connection was closed as it was reused; never a POST', async () => {
    const client = newClient();
    const stale = (method: string) => client.request(`${base}/stale`, { method, timeoutMs: 5000, maxBytes: 1024 });
    expect(await stale('GET')).toMatchObject({ ok: true, status: 200 });
    const before = received.length;
    // The second GET goes out on the kept connection, which the server drops: sent again on a new one.
    expect(await stale('GET')).toMatchObject({ ok: true, status: 200 });
    expect(received.slice(before).map((r) => r.method)).toEqual(['GET', 'GET']);
    // A POST on a dropped connection may have reached the receiver: it is not sent again.
    const failed = await stale('POST');
    expect(failed).toMatchObject({ ok: false, reason: 'failed' });
    expect(received.slice(before).map((r) => r.method)).toEqual(['GET', 'GET', 'POST']);
  });

  it('does not follow a redirect: a 3xx is a response like any other', async () => {
    const client = newClient();
    const result = await client.request(`${base}/moved`, { method: 'POST', body: '{}', timeoutMs: 5000, maxBytes: 1024 });
    expect(result.ok && result.status).toBe(302);
    expect(result.ok && result.headers.get('location')).toBe('/elsewhere');
    expect(redirectedTo).toBe(0);
  });

  it('ends every request in flight on close(), and those made afterwards; a caller signal ends its own', async () => {
    const client = newClient();
    const pending = [
      client.request(`${base}/silent`, { timeoutMs: 30_000, maxBytes: 1024 }),
      client.request(`${base}/drip`, { timeoutMs: 30_000, maxBytes: 1024 * 1024 }),
    ];
    await new Promise((r) => setTimeout(r, 200));
    expect((await client.request(`${base}/echo`, { timeoutMs: 5000, maxBytes: 1024 })).ok).toBe(true);
    const started = Date.now();
    client.close();
    const stopped = { ok: false, reason: 'stopped', error: 'stopped' };
    expect(await Promise.all(pending)).toEqual([stopped, stopped]);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await client.request(`${base}/echo`, { timeoutMs: 5000, maxBytes: 1024 })).toEqual(stopped);

    // Its pooled connections go too.
    await expect.poll(() => open.size).toBe(0);

    const other = newClient();
    const stop = new AbortController();
    const one = other.request(`${base}/silent`, { timeoutMs: 30_000, maxBytes: 1024, signal: stop.signal });
    stop.abort();
    expect(await one).toEqual(stopped);
    expect((await other.request(`${base}/echo`, { method: 'POST', body: 'still', timeoutMs: 5000, maxBytes: 1024 })).ok).toBe(true);
  });

  it('names the host and what happened for a refused connection and an unknown host, never a header', async () => {
    const closed = await listenOnLoopback(http.createServer());
    await closed.close();
    const client = newClient();
    const refused = await client.request(`http://127.0.0.1:${closed.port}/x`, {
      headers: { 'x-api-key': 'secret-key' },
      timeoutMs: 5000,
      maxBytes: 1024,
    });
    expect(refused).toEqual({ ok: false, reason: 'failed', error: `127.0.0.1:${closed.port}: connection refused (ECONNREFUSED)` });
    const unknown = await client.request('https://nonexistent.invalid/v3/feed.json', { timeoutMs: 10_000, maxBytes: 1024 });
    expect(unknown).toEqual({ ok: false, reason: 'failed', error: 'nonexistent.invalid: host name not found (ENOTFOUND)' });
    // A header that cannot be sent is named, its value (a key, perhaps) never repeated.
    const refusedHeader = await client.request(`${base}/echo`, {
      headers: { authorization: 'Bearer se\ncret' },
      timeoutMs: 5000,
      maxBytes: 1024,
    });
    expect(refusedHeader).toEqual({
      ok: false,
      reason: 'failed',
      error: `${host}: ERR_INVALID_CHAR Invalid character in header content ["authorization"]`,
    });
  });

  it('is a fetch for oauth4webapi: the body read within bounds first, a failure thrown', async () => {
    const client = newClient();
    const fetch = client.fetcher({ timeoutMs: 300, maxBytes: 1024 });
    const response = await fetch(`${base}/echo`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
      body: new URLSearchParams({ a: '1' }),
    });
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('got a=1');
    expect(received.at(-1)!.headers).toMatchObject({
      'content-type': 'application/x-www-form-urlencoded;charset=UTF-8',
      'content-length': '3',
    });
    const failure = await fetch(`${base}/silent`, {}).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(HttpRequestError);
    expect((failure as HttpRequestError).failure.reason).toBe('timeout');
    await expect(fetch(`${base}/declared`, {})).rejects.toThrow(`${host}: response larger than 1024 bytes`);
  });
});
