// Network pushes in-process against the network stand-in (contract §11): a duplicate look-up
// settles a create only with a 200 and a JSON array, and Retry-After on a 429 or 503 is honoured.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { startNetworkStandIn, type NetworkStandIn } from '../../support/network-stand-in.js';
import { DIVISION_FILE, NETWORK_KEY } from '../../support/network-sync.js';

const DAY = 86_400_000;
const NOW = Date.UTC(2026, 5, 1, 8, 0, 0);

describe('network pushes: the duplicate look-up and Retry-After', () => {
  let network: NetworkStandIn;
  let ctx: TestContext;
  let token: string;
  let now = NOW;

  beforeEach(async () => {
    now = NOW;
    network = await startNetworkStandIn([{ token: NETWORK_KEY, division: 'EUD', subdivision: 'SCA' }]);
    ctx = await createTestContext({
      now,
      env: {
        DIVISION: 'EUD',
        SUBDIVISIONS: 'SCA',
        NETWORK_BOOKINGS_URL: network.url,
        NETWORK_BOOKINGS_KEY: NETWORK_KEY,
        NETWORK_RETRY_BASE_MS: '100',
      },
    });
    await ctx.load(DIVISION_FILE);
    token = await ctx.key('edit');
    ctx.services.workers.start();
  });
  afterEach(async () => {
    await ctx.services.workers.stop();
    await ctx.close();
    await network.close();
  });

  const later = (ms: number) => {
    now += ms;
    ctx.setNow(now);
    ctx.services.workers.wake('network-pushes');
  };
  const push = () => ctx.services.db.kysely.selectFrom('network_pushes').selectAll().executeTakeFirstOrThrow();
  const create = async () => {
    const day = new Date(NOW + 3 * DAY);
    const res = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token,
      payload: {
        cid: 1_200_001,
        date: `${day.getUTCDate()}/${day.getUTCMonth() + 1}/${day.getUTCFullYear()}`,
        start_at: '10:00',
        end_at: '12:00',
        position: 'EKCH_TWR',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { booking: { id: number } }).booking.id;
  };

  it('keeps retrying a create whose look-up returns 204, a 2xx that is not a JSON array, or garbage; settles it on a JSON array', async () => {
    // The network stores the create but its response is lost (a 500): the next attempt must look first.
    network.respondWith((method) => (method === 'POST' ? { status: 500, body: 'upstream reset', handled: true } : undefined));
    const id = await create();
    await vi.waitFor(() => expect(network.count('POST')).toBe(1));
    await vi.waitFor(async () => expect(await push()).toMatchObject({ status: 'pending', attempts: 1, lease_owner: null }));

    const lookups: Array<{ status: number; body?: string; headers?: Record<string, string> }> = [
      { status: 204 },
      { status: 200, body: '{"data":[]}', headers: { 'content-type': 'application/json' } },
      { status: 200, body: '<html>maintenance</html>' },
      { status: 201, body: '[]', headers: { 'content-type': 'application/json' } },
    ];
    for (const [i, response] of lookups.entries()) {
      network.respondWith((method) => (method === 'GET' ? response : undefined));
      later(3_600_000);
      await vi.waitFor(() => expect(network.count('GET')).toBe(i + 1));
      await vi.waitFor(async () => expect(await push()).toMatchObject({ status: 'pending', attempts: i + 2, lease_owner: null }));
      const row = await push();
      expect(row.last_error).toMatch(/^looking for an earlier create: /);
      expect(row.posted).not.toBeNull();
    }
    expect(network.count('POST')).toBe(1);
    const waiting = await ctx.request({ method: 'GET', url: `/api/bookings/${id}`, token });
    expect(waiting.json()).toMatchObject({ network_booking: null });

    // The real list: the earlier create is found, not posted again.
    network.respondWith(null);
    later(3_600_000);
    await vi.waitFor(async () => expect(await push()).toMatchObject({ status: 'done', posted: null }));
    expect(network.count('POST')).toBe(1);
    const [stored] = [...network.bookings.values()];
    const done = await ctx.request({ method: 'GET', url: `/api/bookings/${id}`, token });
    expect(done.json()).toMatchObject({ network_booking: String(stored!.id) });
  });

  it('waits as long as Retry-After asks on a 429 (seconds) and a 503 (HTTP-date)', async () => {
    network.respondWith((method) => (method === 'POST' ? { status: 429, headers: { 'retry-after': '120' } } : undefined));
    await create();
    await vi.waitFor(async () =>
      expect(await push()).toMatchObject({ status: 'pending', attempts: 1, last_status: 429, lease_owner: null }),
    );
    expect((await push()).next_attempt_at).toBe(now + 120_000);

    later(60_000); // not due yet
    network.respondWith((method) =>
      method === 'POST' ? { status: 503, headers: { 'retry-after': new Date(now + 300_000).toUTCString() } } : undefined,
    );
    later(60_000);
    await vi.waitFor(async () => expect(await push()).toMatchObject({ attempts: 2, last_status: 503, lease_owner: null }));
    expect(network.count('POST')).toBe(2);
    expect((await push()).next_attempt_at).toBe(now + 300_000);
  });
});
