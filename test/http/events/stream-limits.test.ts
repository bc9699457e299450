// GET /api/events (contract §10): open streams are capped per key and in all (429 with
// Retry-After), and a stream whose key is revoked (by another process) or expires ends at its
// next heartbeat. In-process server on a real port; the clock is the test's, for expiry.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { runCli } from '../../support/processes.js';
import { openStream, sleep, type StreamReader } from '../../support/webhooks.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('live stream caps and key checks', { timeout: 60_000 }, () => {
  let ctx: TestContext;
  let url: string;
  let counter = 0;
  const open: StreamReader[] = [];

  const stream = async (token: string) => {
    const s = await openStream(url, token);
    open.push(s);
    return s;
  };
  const key = async (expiresAt: number | null = null) => {
    const name = `stream-key-${++counter}`;
    const { token } = await ctx.services.keys.create({ name, scope: 'read', expiresAt });
    return { name, token };
  };
  /** Opens a stream once the server has let go of a closed one (the close reaches it a moment later). */
  const openWhenFree = async (token: string) => {
    for (let i = 0; i < 200; i++) {
      const s = await stream(token);
      if (s.status === 200) return s;
      s.close();
      await sleep(25);
    }
    throw new Error('no place was freed');
  };
  const body = async (s: StreamReader) => {
    await s.ended;
    return s.messages;
  };

  beforeAll(async () => {
    ctx = await createTestContext({
      now: NOW,
      env: { EVENTS_MAX_STREAMS_PER_KEY: '2', EVENTS_MAX_STREAMS: '3', SECTOR_EVENT_STREAM_HEARTBEAT_MS: '100' },
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    // The stream's tail and heartbeat are workers, as in the server.
    ctx.services.workers.start();
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await ctx.close();
  });

  it('returns 429 with Retry-After and a message past the cap of a key; closing one frees a place', async () => {
    const { token } = await key();
    const first = await stream(token);
    const second = await stream(token);
    expect([first.status, second.status]).toEqual([200, 200]);

    const res = await fetch(`${url}/api/events`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await res.json()) as { message: string }).message).toMatch(/event streams open/);

    first.close();
    const third = await openWhenFree(token);
    expect(third.status).toBe(200);
    second.close();
    third.close();
  });

  it('returns 429 past the cap of the process, whatever the key', async () => {
    const a = await key();
    const b = await key();
    const c = await key();
    const held = [await openWhenFree(a.token), await openWhenFree(a.token), await openWhenFree(b.token)];
    const res = await fetch(`${url}/api/events`, { headers: { authorization: `Bearer ${c.token}` } });
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).not.toBeNull();
    expect(((await res.json()) as { message: string }).message).toMatch(/server/);
    held[2]!.close();
    (await openWhenFree(c.token)).close();
    for (const s of held) s.close();
  });

  it('ends the stream of a key revoked by another process at a heartbeat; the key opens none again', async () => {
    const { name, token } = await key();
    const other = await key();
    const revoked = await openWhenFree(token);
    const kept = await openWhenFree(other.token);
    await revoked.until((m) => m.some((x) => x.comment === 'keep-alive'));

    const cli = runCli(['apikey:revoke', name], { DATABASE_URL: ctx.databaseUrl });
    expect(cli.code, cli.stderr).toBe(0);
    await body(revoked);
    expect(revoked.response.complete).toBe(true);
    // The stream of a valid key goes on.
    const beats = kept.messages.length;
    await kept.until((m) => m.length > beats + 1);
    kept.close();
    expect((await fetch(`${url}/api/events`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
  });

  it('ends the stream of a key that expires', async () => {
    const { token } = await key(NOW + 60_000);
    const other = await key(NOW + 3_600_000);
    const expiring = await openWhenFree(token);
    const kept = await openWhenFree(other.token);
    await expiring.until((m) => m.some((x) => x.comment === 'keep-alive'));
    ctx.setNow(NOW + 120_000);
    try {
      await body(expiring);
      expect(expiring.response.complete).toBe(true);
      const beats = kept.messages.length;
      await kept.until((m) => m.length > beats + 1);
      kept.close();
    } finally {
      ctx.setNow(NOW);
    }
  });
});
