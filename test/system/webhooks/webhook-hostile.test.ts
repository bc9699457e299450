// Hostile receivers (docs/events.md): ones that hang, respond slowly, redirect or send a
// huge body cannot slow the API or exhaust memory or sockets.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { servicesOver } from '../../support/seed.js';
import { freshDatabaseUrl } from '../../support/context.js';
import { startServer, type ServerProcess } from '../../support/processes.js';
import { createBooking, prepareDivision, type Receiver, sleep, startReceiver } from '../../support/webhooks.js';

const HANGING = 12;
const CONCURRENCY = 8;

describe('hostile webhook receivers', { timeout: 120_000 }, () => {
  const env = { DATABASE_URL: freshDatabaseUrl(), WEBHOOK_TIMEOUT_MS: '1500', WEBHOOK_RETRY_BASE_MS: '600000' };
  let server: ServerProcess;
  let token: string;
  let receiver: Receiver;
  let target: Receiver;
  let maxOpen = 0;
  let hugeBytesWritten = 0;
  let hugeClosed = false;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    ({ token } = await prepareDivision(env));
    target = await startReceiver();
    receiver = await startReceiver((req, res) => {
      maxOpen = Math.max(maxOpen, receiver.openSockets());
      const kind = req.url!.split('/')[2];
      if (kind === 'hang') return 'handled';
      if (kind === 'slow') {
        setTimeout(() => res.writeHead(200).end('fine, eventually'), 500);
        return 'handled';
      }
      if (kind === 'redirect') {
        res.writeHead(307, { location: target.url }).end();
        return 'handled';
      }
      // huge: an endless body, written as fast as the other side takes it.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => {
        while (!res.destroyed && res.write(chunk)) hugeBytesWritten += chunk.length;
        if (!res.destroyed) res.once('drain', pump);
      };
      res.on('close', () => {
        hugeClosed = true;
      });
      pump();
      return 'handled';
    });
    const db = openDatabase(env.DATABASE_URL);
    try {
      const subs = servicesOver(db, env.DATABASE_URL).webhooks;
      const base = receiver.url.replace(/\/hook$/, '');
      for (let i = 0; i < HANGING; i++) ids[`hang${i}`] = (await subs.add(`${base}/x/hang/${i}`, null)).id;
      for (const kind of ['slow', 'redirect', 'huge']) ids[kind] = (await subs.add(`${base}/x/${kind}`, null)).id;
    } finally {
      await db.close();
    }
    server = await startServer(env);
  });
  afterAll(async () => {
    await server.stop('SIGKILL');
    await receiver.close();
    await target.close();
  });

  it('keeps the API responding while receivers hang, and caps deliveries in flight', async () => {
    const first = await createBooking(server.url, token, 0);
    expect(first.status).toBe(201);
    await sleep(300);
    for (let i = 1; i <= 20; i++) {
      const r = await createBooking(server.url, token, i);
      expect(r.status).toBe(201);
      const list = await fetch(`${server.url}/api/bookings`, { headers: { authorization: `Bearer ${token}` } });
      expect(list.status).toBe(200);
    }
    await sleep(4000);
    expect(maxOpen).toBeGreaterThan(0);
    // Twelve receivers hang: the cap, not their number, bounds the sockets.
    expect(maxOpen).toBe(CONCURRENCY);
  });

  it('records timeouts, refuses redirects, reads little of a huge body, and delivers to the slow receiver', async () => {
    const db = openDatabase(env.DATABASE_URL);
    try {
      const subs = servicesOver(db, env.DATABASE_URL).webhooks;
      const deadline = Date.now() + 30_000;
      let hang = await subs.deliveries(ids.hang0!);
      while (hang.length === 0 && Date.now() < deadline) {
        await sleep(250);
        hang = await subs.deliveries(ids.hang0!);
      }
      for (let i = 0; i < HANGING; i++) {
        const attempts = await subs.deliveries(ids[`hang${i}`]!);
        expect(attempts).toHaveLength(1);
        expect(attempts[0]).toMatchObject({ status_code: null, attempt: 1 });
        expect(attempts[0]!.error).toMatch(/^127\.0\.0\.1:\d+: no response within 1500 ms$/);
        expect(attempts[0]!.duration_ms).toBeLessThan(5000);
      }
      const redirect = await subs.deliveries(ids.redirect!);
      expect(redirect).toHaveLength(1);
      expect(redirect[0]).toMatchObject({ status_code: 307 });
      expect(redirect[0]!.error).toMatch(/redirect/);
      expect(target.received).toHaveLength(0);

      const huge = await subs.deliveries(ids.huge!);
      expect(huge.length).toBeGreaterThan(0);
      expect(huge.every((a) => a.status_code === 200 && a.error === null)).toBe(true);
      expect(hugeClosed).toBe(true);
      // The server stopped reading after a few KiB: what the receiver could push is bounded by socket buffers.
      expect(hugeBytesWritten).toBeLessThan(64 * 1024 * 1024);

      const slow = await subs.deliveries(ids.slow!);
      expect(slow.length).toBeGreaterThan(0);
      expect(slow.every((a) => a.status_code === 200)).toBe(true);
    } finally {
      await db.close();
    }
  });
});
