// activity:backfill reads members' past sessions from the network's ATC history (stand-in of the
// API v2 Members operations), resumes where it stopped, and activity follows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { startCoreApiStandIn, type CoreApiStandIn } from '../../support/core-api-stand-in.js';
import { buildPosition, buildUser } from '../../support/factories.js';
import { runCliAsync } from '../../support/processes.js';

const A = 1_800_001;
const B = 1_800_002;
const OUTSIDER = 1_800_003; // not a member: not read
const HOUR = 3_600_000;

describe('npx sector activity:backfill', () => {
  let api: CoreApiStandIn;
  let ctx: TestContext;
  let env: Record<string, string>;
  beforeAll(async () => {
    api = await startCoreApiStandIn();
    ctx = await createTestContext();
    await ctx.load({
      areas: ['Denmark'],
      users: [buildUser({ id: A }), buildUser({ id: B }), buildUser({ id: OUTSIDER, division: 'EUC' })],
      positions: [buildPosition('EKCH_TWR')],
    });
    const start = Date.now() - 30 * 24 * HOUR;
    // 120 sessions of six minutes (12 hours) over two pages; the network writes instants without a zone.
    api.atc.set(
      A,
      Array.from({ length: 120 }, (_, i) => ({
        callsign: i % 2 === 0 ? 'EKCH_TWR' : 'EKCH_A_TWR',
        start: new Date(start + i * HOUR).toISOString().slice(0, 19),
        end: new Date(start + i * HOUR + HOUR / 10).toISOString().slice(0, 19),
      })),
    );
    api.atc.set(B, [{ callsign: 'ESSA_TWR', start: new Date(start).toISOString(), end: new Date(start + 50 * HOUR).toISOString() }]);
    env = {
      DATABASE_URL: ctx.databaseUrl,
      DIVISION: 'EUD',
      CORE_API_URL: api.url,
      CORE_API_KEY: api.key,
      SECTOR_BACKFILL_SPACING_MS: '0',
      ACTIVITY_HOURS: '12',
    };
  });
  afterAll(async () => {
    await ctx.close();
    await api.close();
  });

  it('reads each member page by page, stops at a failure and resumes there, and activity follows', async () => {
    api.fail(`/v2/members/${B}/atc`, { status: 429 });
    const first = await runCliAsync(['activity:backfill'], env);
    expect(first.code).toBe(1);
    expect(first.stderr).toMatch(
      /sector: the network's API failed \(v2\/members\/1800002\/atc\?offset=0\): HTTP 429; run again to resume from here\n$/,
    );
    expect(api.requests).toEqual([
      `/v2/members/${A}/atc?limit=100&offset=0`,
      `/v2/members/${A}/atc?limit=100&offset=100`,
      `/v2/members/${B}/atc?limit=100&offset=0`,
    ]);

    api.clearFaults();
    api.requests.splice(0);
    const second = await runCliAsync(['activity:backfill'], env);
    expect(second.stderr).toBe(`member ${B}: history read\n`);
    expect(second.stdout).toBe('Read the history of 1 member in 1 request: 0 sessions added, activity changed for 0 user areas.\n');
    expect(api.requests).toEqual([`/v2/members/${B}/atc?limit=100&offset=0`]);

    // A's sessions were recorded by the first run; the recompute of the second covers only B:
    // --cid reads A again (nothing new to add) and recomputes A.
    const again = await runCliAsync(['activity:backfill', '--cid', String(A)], env);
    expect(again.stdout).toBe('Read the history of 1 member in 2 requests: 0 sessions added, activity changed for 1 user area.\n');
    const activity = await runCliAsync(['activity', '--json'], env);
    expect(JSON.parse(activity.stdout)).toEqual([
      expect.objectContaining({ cid: A, area: 'Denmark', hours: 12, active: true, reason: 'hours' }),
    ]);
  });
});
