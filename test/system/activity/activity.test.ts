// ATC activity computed from the sessions recorded from the feed (contract §16): the requirement
// met exactly, just missed, a grace from import running and expired; the users list, its cache and
// the `activity` command follow.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMonths } from '../../../src/features/activity/domain.js';
import { FeedPollService } from '../../../src/features/activity/feed.service.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { startDataFeedStandIn, type DataFeedStandIn } from '../../support/data-feed-stand-in.js';
import { buildPosition, buildUser } from '../../support/factories.js';
import { runCliAsync } from '../../support/processes.js';

const HOUR = 3_600_000;
// The real clock (the CLI process reads it), to the minute.
const T0 = Math.floor(Date.now() / 60_000) * 60_000;
const iso = (ms: number) => new Date(ms).toISOString();

const EXACT = 1_600_001; // 10 h exactly on EKCH_A_TWR
const BELOW = 1_600_002; // 9 h 59 min
const GRACE = 1_600_003; // no hours, made active by import 5 months ago (grace 6 months)
const EXPIRED = 1_600_004; // made active by import 7 months ago
const OLD = 1_600_005; // 20 h, 13 months ago (outside the 12-month period)
const FINLAND = 1_600_006; // 10 h in Finland only

interface User {
  id: number;
  atc_active: boolean;
  atc_active_areas?: Record<string, boolean>;
}

describe('ATC activity from sessions', () => {
  let feed: DataFeedStandIn;
  let ctx: TestContext;
  let key: string;
  const env = { ACTIVITY_HOURS: '10', ACTIVITY_PERIOD_MONTHS: '12', ACTIVITY_GRACE_MONTHS: '6', DIVISION: 'EUD' };
  const list = async (query = 'include[]=allUsers&include[]=activeAreas') =>
    (await ctx.request({ method: 'GET', url: `/api/users?${query}`, token: key })).json() as User[];

  beforeAll(async () => {
    feed = await startDataFeedStandIn();
    ctx = await createTestContext({ now: addMonths(T0, -7), env });
    const users = [EXACT, BELOW, GRACE, EXPIRED, OLD, FINLAND].map((id) => buildUser({ id, first_name: `U${id}`, last_name: 'X' }));
    await ctx.load({
      areas: ['Denmark', 'Finland'],
      users: users.map((u) => (u.id === EXPIRED ? { ...u, atc_active_areas: { Denmark: true } } : u)),
      positions: [buildPosition('EKCH_TWR'), buildPosition('EFHK_TWR')],
    });
    ctx.setNow(addMonths(T0, -5));
    await ctx.load({ users: [{ id: GRACE, atc_active_areas: { Denmark: true } }] });
    ctx.setNow(T0);
    key = await ctx.key('read');
  });
  afterAll(async () => {
    await ctx.close();
    await feed.close();
  });

  const poll = (at: number, controllers: Parameters<DataFeedStandIn['set']>[1]) => {
    feed.set(iso(at), controllers);
    return new FeedPollService({
      repos: ctx.services.repos,
      writer: ctx.services.writer,
      feed: { url: feed.url, intervalS: 1 },
      clock: ctx.services.clock,
      onEnded: (cids) => ctx.services.activity.recompute(cids).then(() => {}),
    }).poll();
  };

  it('counts the sessions within the period against the requirement, when a session ends and at the daily recompute', async () => {
    // Imported activity, as it stands before any recompute.
    expect((await list()).filter((u) => u.atc_active).map((u) => u.id)).toEqual([GRACE, EXPIRED]);

    const old = addMonths(T0, -13);
    await poll(old, [{ cid: OLD, callsign: 'EKCH_TWR', logon_time: iso(old - 20 * HOUR) }]);
    await poll(old + 60_000, []);

    const end = T0 - HOUR;
    await poll(end, [
      { cid: EXACT, callsign: 'EKCH_A_TWR', logon_time: iso(end - 10 * HOUR) },
      { cid: BELOW, callsign: 'EKCH_TWR', logon_time: iso(end - 10 * HOUR + 60_000) },
      { cid: FINLAND, callsign: 'EFHK_TWR', logon_time: iso(end - 10 * HOUR) },
    ]);
    const cached = await list();
    expect(cached.find((u) => u.id === EXACT)!.atc_active).toBe(false);
    // The sessions end: activity is recomputed for these controllers, and the cached list follows.
    expect(await poll(end + 60_000, [])).toMatchObject({ ended: [EXACT, BELOW, FINLAND] });
    let users = await list();
    expect(users.filter((u) => u.atc_active).map((u) => u.id)).toEqual([EXACT, GRACE, EXPIRED, FINLAND]);
    expect(users.find((u) => u.id === EXACT)!.atc_active_areas).toEqual({ denmark: true, finland: false });
    expect(users.find((u) => u.id === FINLAND)!.atc_active_areas).toEqual({ denmark: false, finland: true });

    // The daily recompute: the expired grace ends, the running one stays.
    expect(await ctx.services.activity.recompute()).toBe(1);
    users = await list();
    expect(users.filter((u) => u.atc_active).map((u) => u.id)).toEqual([EXACT, GRACE, FINLAND]);
    expect((await list('include[]=allUsers&onlyAtcActive=true')).map((u) => u.id)).toEqual([EXACT, GRACE, FINLAND]);
    expect(await ctx.services.activity.recompute()).toBe(0);
  });

  it('`activity` prints the hours, the requirement, the grace and the result', async () => {
    const r = await runCliAsync(['activity', '--json'], { DATABASE_URL: ctx.databaseUrl, ...env });
    expect(r.stderr).toBe('');
    const rows = (JSON.parse(r.stdout) as Array<Record<string, unknown>>).map(({ period_start: _p, ...rest }) => rest);
    expect(rows).toEqual([
      { cid: EXACT, area: 'Denmark', hours: 10, required_hours: 10, grace_until: null, active: true, reason: 'hours', listed: true },
      { cid: BELOW, area: 'Denmark', hours: 9.98, required_hours: 10, grace_until: null, active: false, reason: 'below', listed: false },
      {
        cid: GRACE,
        area: 'Denmark',
        hours: 0,
        required_hours: 10,
        grace_until: expect.stringMatching(/Z$/),
        active: true,
        reason: 'grace',
        listed: true,
      },
      {
        cid: EXPIRED,
        area: 'Denmark',
        hours: 0,
        required_hours: 10,
        grace_until: expect.stringMatching(/Z$/),
        active: false,
        reason: 'below',
        listed: false,
      },
      { cid: FINLAND, area: 'Finland', hours: 10, required_hours: 10, grace_until: null, active: true, reason: 'hours', listed: true },
    ]);
    const one = await runCliAsync(['activity', '--cid', String(BELOW)], { DATABASE_URL: ctx.databaseUrl, ...env });
    expect(one.stdout).toMatch(
      /^CID +AREA +HOURS +REQUIRED +GRACE UNTIL +ACTIVE +WHY\n1600002 +Denmark +9\.98 +10 +- +no +below the requirement\n$/,
    );
    const bad = await runCliAsync(['activity', '--cid', 'x'], { DATABASE_URL: ctx.databaseUrl });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe('sector: --cid must be a positive whole number (got "x")\n');
  });
});
