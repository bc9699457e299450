// The schedule page's "On now": who staffs the division's positions now, and whether today's
// booked positions are staffed, from the sessions the feed poll records. No names (public page).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { pollFeed, startDataFeedStandIn, type DataFeedStandIn } from '../../support/data-feed-stand-in.js';
import { ADA, buildBooking, buildPosition, buildUser } from '../../support/factories.js';

const T0 = Date.UTC(2026, 10, 25, 10, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const text = (body: string) =>
  body
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

describe('GET / "On now"', () => {
  let feed: DataFeedStandIn;
  let ctx: TestContext;
  beforeAll(async () => {
    feed = await startDataFeedStandIn();
    ctx = await createTestContext({ now: T0, env: { DATA_FEED_URL: feed.url } });
    await ctx.load({
      areas: ['Denmark'],
      users: [buildUser()],
      positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP')],
      bookings: [
        buildBooking({ user_id: ADA, callsign: 'EKCH_TWR', time_start: '2026-11-25 09:00:00', time_end: '2026-11-25 11:00:00' }),
        buildBooking({ user_id: ADA, callsign: 'EKCH_APP', time_start: '2026-11-25 15:00:00', time_end: '2026-11-25 17:00:00' }),
        buildBooking({ user_id: ADA, callsign: 'EKCH_APP', time_start: '2026-11-26 15:00:00', time_end: '2026-11-26 17:00:00' }),
      ],
    });
  });
  afterAll(async () => {
    await ctx.close();
    await feed.close();
  });

  it('says nobody is on, then who is and which of today\u2019s booked positions are staffed', async () => {
    const before = text((await ctx.request({ method: 'GET', url: '/' })).body);
    expect(before).toContain('On now Nobody is controlling a position of the division right now.');
    expect(before).toContain('Booked today EKCH_TWR 09:00–11:00: not staffed now EKCH_APP 15:00–17:00: not staffed now');

    feed.set(iso(T0), [{ cid: ADA, callsign: 'EKCH_A_TWR', logon_time: iso(T0 - 45 * 60_000) }]);
    await pollFeed(ctx.services, feed);
    // The page follows at the next minute.
    ctx.setNow(T0 + 60_000);
    const page = await ctx.request({ method: 'GET', url: '/' });
    expect(page.statusCode).toBe(200);
    const after = text(page.body);
    expect(after).toContain('On now EKCH_A_TWR (EKCH_TWR) since 09:15 UTC');
    expect(after).toContain('EKCH_TWR 09:00–11:00: staffed now EKCH_APP 15:00–17:00: not staffed now');
    expect(page.body).toMatch(/<section aria-labelledby="on-now" class="on-now">\s*<h2 id="on-now">On now<\/h2>/);
    expect(page.body).not.toContain('Ada');
  });
});
