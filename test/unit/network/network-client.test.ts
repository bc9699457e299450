// The client of the network's service treats it as hostile: bounded responses, no redirects, a deadline.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../src/core/http-client.js';
import { bookingsRequest } from '../../../src/features/network/pushes.service.js';

/** The bookings service's requests, as the pusher makes them. */
class NetworkClient {
  private readonly http = new HttpClient();
  constructor(private readonly config: { url: string; key: string; timeoutMs: number }) {}
  request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, signal?: AbortSignal) {
    return bookingsRequest(this.http, this.config, method, path, body, signal);
  }
  close() {
    this.http.close();
  }
}

describe('network client', () => {
  let server: http.Server;
  let base: string;
  let redirectedTo = 0;

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/api/huge') {
        res.writeHead(500, { 'content-type': 'text/plain' });
        const chunk = Buffer.alloc(64 * 1024, 'x');
        let sent = 0;
        const pump = () => {
          while (sent < 10_000 && res.write(chunk)) sent++;
          if (sent < 10_000 && !res.destroyed) res.once('drain', pump);
        };
        res.on('close', () => (sent = 10_000));
        pump();
      } else if (req.url === '/api/moved') {
        res.writeHead(302, { location: '/api/elsewhere' }).end();
      } else if (req.url === '/api/elsewhere') {
        redirectedTo++;
        res.writeHead(200).end('{}');
      } else if (req.url === '/api/silent') {
        // never responds
      } else {
        res.writeHead(201, { 'content-type': 'application/json' }).end(JSON.stringify({ auth: req.headers.authorization }));
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('sends the key as a bearer token and reads the response', async () => {
    const client = new NetworkClient({ url: base, key: 'k-123', timeoutMs: 5000 });
    const response = await client.request('POST', 'booking', { a: 1 });
    expect(response.status).toBe(201);
    expect(JSON.parse(response.body)).toEqual({ auth: 'Bearer k-123' });
    client.close();
  });

  it('reads at most 64 KiB of a response', async () => {
    const client = new NetworkClient({ url: base, key: 'k', timeoutMs: 10_000 });
    const response = await client.request('GET', 'huge');
    expect(response.status).toBe(500);
    expect(response.body.length).toBe(64 * 1024);
    client.close();
  });

  it('names the request and the failure in words, never the credentials of the URL', async () => {
    const closed = new URL(base);
    const port = closed.port;
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    try {
      const client = new NetworkClient({ url: `http://user:secret@127.0.0.1:${port}/api`, key: 'k', timeoutMs: 5000 });
      const response = await client.request('GET', 'booking?callsign=EKCH_TWR');
      expect(response).toMatchObject({
        status: null,
        error: `GET http://127.0.0.1:${port}/api/booking: connection refused (ECONNREFUSED)`,
      });
      client.close();
    } finally {
      await new Promise<void>((r) => server.listen(Number(port), '127.0.0.1', r));
    }
  });

  it('does not follow a redirect', async () => {
    const client = new NetworkClient({ url: base, key: 'k', timeoutMs: 5000 });
    expect((await client.request('POST', 'moved', {})).status).toBe(302);
    expect(redirectedTo).toBe(0);
    client.close();
  });

  it('gives up on a silent network after its timeout, and on a stop', async () => {
    const client = new NetworkClient({ url: base, key: 'k', timeoutMs: 300 });
    const response = await client.request('GET', 'silent');
    // The failure names the request (without its query) so that network:status says what failed where.
    expect(response).toMatchObject({ status: null, error: `GET ${base}/silent: no response within 300 ms` });
    const stop = new AbortController();
    const pending = client.request('GET', 'silent', undefined, stop.signal);
    stop.abort();
    expect(await pending).toMatchObject({ status: null, error: 'stopped' });
    client.close();
  });
});
