// GET /api/online: the division's positions staffed now, from the sessions the feed poll records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { pollFeed, startDataFeedStandIn, type DataFeedStandIn } from '../../support/data-feed-stand-in.js';
import { ADA, buildPosition, buildUser } from '../../support/factories.js';

const T0 = Date.UTC(2026, 10, 25, 10, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

describe('GET /api/online', () => {
  let feed: DataFeedStandIn;
  let ctx: TestContext;
  beforeAll(async () => {
    feed = await startDataFeedStandIn();
    ctx = await createTestContext({ now: T0 });
    await ctx.load({ areas: ['Denmark'], users: [buildUser()], positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP')] });
  });
  afterAll(async () => {
    await ctx.close();
    await feed.close();
  });
  const poll = (at: number, controllers: Parameters<DataFeedStandIn['set']>[1]) => {
    feed.set(iso(at), controllers);
    return pollFeed(ctx.services, feed);
  };

  it('lists who staffs which position: public without personal data, with a key adding cid and name', async () => {
    expect((await ctx.request({ method: 'GET', url: '/api/online' })).json()).toEqual({ data: [] });
    await poll(T0, [
      { cid: ADA, callsign: 'EKCH_A_TWR', logon_time: iso(T0 - 3_600_000), frequency: '118.105' },
      { cid: 1_700_001, callsign: 'EKCH_APP', logon_time: iso(T0 - 600_000), frequency: '119.805', name: 'Guest Controller' },
      { cid: 1_700_002, callsign: 'ESSA_TWR', logon_time: iso(T0 - 600_000) },
    ]);
    const open = await ctx.request({ method: 'GET', url: '/api/online' });
    expect(open.statusCode).toBe(200);
    expect(open.headers['access-control-allow-origin']).toBe('*');
    expect(open.json()).toEqual({
      data: [
        { callsign: 'EKCH_APP', position: 'EKCH_APP', frequency: '119.805', since: '2026-11-25T09:50:00.000000Z' },
        { callsign: 'EKCH_A_TWR', position: 'EKCH_TWR', frequency: '118.105', since: '2026-11-25T09:00:00.000000Z' },
      ],
    });
    const again = await ctx.request({ method: 'GET', url: '/api/online', headers: { 'if-none-match': String(open.headers.etag) } });
    expect(again.statusCode).toBe(304);

    const keyed = await ctx.request({ method: 'GET', url: '/api/online', token: await ctx.key('read') });
    expect((keyed.json() as { data: unknown[] }).data).toEqual([
      {
        callsign: 'EKCH_APP',
        position: 'EKCH_APP',
        frequency: '119.805',
        since: '2026-11-25T09:50:00.000000Z',
        cid: 1_700_001,
        name: 'Guest Controller',
      },
      {
        callsign: 'EKCH_A_TWR',
        position: 'EKCH_TWR',
        frequency: '118.105',
        since: '2026-11-25T09:00:00.000000Z',
        cid: ADA,
        name: 'Ada Lind',
      },
    ]);
    expect((await ctx.request({ method: 'GET', url: '/api/online', token: 'sector_nonsense' })).statusCode).toBe(401);
  });

  it('drops sessions that ended, and shows nobody on the strength of an old sighting', async () => {
    ctx.setNow(T0 + 60_000);
    await poll(T0 + 60_000, [{ cid: ADA, callsign: 'EKCH_A_TWR', logon_time: iso(T0 - 3_600_000) }]);
    expect((await ctx.request({ method: 'GET', url: '/api/online' })).json()).toMatchObject({ data: [{ position: 'EKCH_TWR' }] });
    // No poll for an hour (the feed failing): the open session is not shown.
    ctx.setNow(T0 + 3_600_000);
    expect((await ctx.request({ method: 'GET', url: '/api/online' })).json()).toEqual({ data: [] });
    ctx.setNow(T0 + 120_000);
    await poll(T0 + 120_000, []);
    expect((await ctx.request({ method: 'GET', url: '/api/online' })).json()).toEqual({ data: [] });
  });

  it('keeps nobody online on the strength of a feed document dated in the future: it is refused', async () => {
    ctx.setNow(T0 + 10 * 60_000);
    await expect(poll(Date.UTC(2099, 0, 1), [{ cid: ADA, callsign: 'EKCH_A_TWR', logon_time: iso(T0) }])).rejects.toThrow(
      /data feed responded with a document dated 2099-01-01T00:00:00.000000Z, more than 2 minutes ahead of this server's clock/,
    );
    expect((await ctx.request({ method: 'GET', url: '/api/online' })).json()).toEqual({ data: [] });
    ctx.setNow(T0 + 24 * 3_600_000);
    expect((await ctx.request({ method: 'GET', url: '/api/online' })).json()).toEqual({ data: [] });
  });

  it('is in the OpenAPI document', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json() as {
      paths: Record<string, { get?: { summary?: string } }>;
    };
    expect(doc.paths['/api/online']?.get?.summary).toBe('Who is online');
  });
});
