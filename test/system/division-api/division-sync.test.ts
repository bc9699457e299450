// `npx sector division:sync` (contract §22, the reconcile) as a process against the hub's stand-in:
// the roster and the tier endorsements made exactly Sector's, the report and its record shown by
// division:status, the dry run, §15's guard, and a hub failing midway.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ALL_TABLES, tableRows } from '../../support/db-state.js';
import { startHubStandIn, type HubRecord, type HubStandIn, hubEnv } from '../../support/division-hub-stand-in.js';
import { ADA, BO, buildDivision, buildEndorsement, buildUser } from '../../support/factories.js';
import { runCliAsync } from '../../support/processes.js';

const CY = 1000003;
const DAN = 1000004;
const EVE = 1000005;
const FOX = 1000006;
const STRANGERS = [1000011, 1000012];
const active = { atc_active_areas: { Denmark: true } };

interface Report {
  dry_run: boolean;
  id: number | null;
  hub: { roster: number; tiers: number };
  wanted: { roster: number; tiers: number };
  roster: { added: number[]; removed: number[] };
  tiers: { added: Array<Record<string, unknown>>; removed: Array<Record<string, unknown>> };
  error: string | null;
}

describe('npx sector division:sync', () => {
  let hub: HubStandIn;
  let ctx: TestContext | undefined;
  let env: Record<string, string>;
  let nextId = 1;

  beforeAll(async () => {
    hub = await startHubStandIn();
  });
  afterAll(async () => hub.close());
  afterEach(async () => {
    await ctx?.close();
    ctx = undefined;
    hub.mode = 'up';
    hub.failAfter = null;
    hub.roster.clear();
    hub.tiers[1].splice(0);
    hub.tiers[2].splice(0);
    hub.requests.splice(0);
  });

  const record = (user_cid: number, position: string): HubRecord => ({
    id: nextId++,
    user_cid,
    position,
    instructor_cid: ADA,
    facility: 9,
    created_at: '2026-01-01 00:00:00',
  });
  const sync = async (...args: string[]) => runCliAsync(['division:sync', ...args], env);
  const changes = () => hub.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

  /**
   * Sector wants Ada, Bo, Cy, Fox (ATC-active) and Dan (visiting): the hub lacks Cy and Dan and has
   * Eve and two strangers besides. Tiers: Bo's and Fox's T1, Ada's T2 are on the hub; Cy's T1 is
   * missing; a stranger's T1 is extra.
   */
  async function setUp() {
    ctx = await createTestContext();
    await ctx.load({
      ...buildDivision({
        users: [
          buildUser({ ...active }),
          buildUser({ id: BO, first_name: 'Bo', rating: 'S2', ...active }),
          buildUser({ id: CY, first_name: 'Cy', rating: 'S2', ...active }),
          buildUser({ id: DAN, first_name: 'Dan', rating: 'S3', division: 'EUR' }),
          buildUser({ id: EVE, first_name: 'Eve', rating: 'S2' }),
          buildUser({ id: FOX, first_name: 'Fox', rating: 'S2', ...active }),
        ],
        roles: [{ user_id: ADA, area: null, role: 'Administrator' }],
        endorsements: [
          buildEndorsement({ user_id: DAN, type: 'visiting', rating: 'S3', areas: ['Denmark'] }),
          buildEndorsement({ user_id: EVE, type: 'visiting', rating: 'S2', areas: ['Denmark'], valid_to: '2026-01-01T00:00:00Z' }),
          buildEndorsement({ user_id: BO, rating: 'EKCH TWR' }),
          buildEndorsement({ user_id: CY, rating: 'EKCH TWR' }),
          buildEndorsement({ user_id: FOX, rating: 'EKCH TWR' }),
          buildEndorsement({ user_id: ADA, rating: 'EKDK CTR' }),
          buildEndorsement({ user_id: EVE, rating: 'EKCH TWR' }),
          buildEndorsement({ user_id: BO, rating: 'ESSA TWR', valid_from: '2025-02-01T00:00:00Z' }),
        ],
      }),
      facilities: [
        { name: 'EKCH TWR', tier: 'T1' },
        { name: 'EKDK CTR', tier: 'T2' },
        { name: 'ESSA TWR', tier: null },
      ],
    });
    env = { DATABASE_URL: ctx.databaseUrl, ...hubEnv(hub) };
    for (const cid of [ADA, BO, FOX, EVE, ...STRANGERS]) hub.roster.add(cid);
    hub.tiers[1].push(record(BO, 'EKCH TWR'), record(FOX, 'EKCH TWR'), record(STRANGERS[0]!, 'EKCH TWR'));
    hub.tiers[2].push(record(ADA, 'EKDK CTR'));
    return hub.tiers[1][2]!.id;
  }

  it('removes the extra members and adds the missing ones, the tier endorsements likewise, and division:status shows the run', async () => {
    const extra = await setUp();
    const run = await sync('--json');
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report).toMatchObject({
      dry_run: false,
      hub: { roster: 6, tiers: 4 },
      wanted: { roster: 5, tiers: 4 },
      roster: { added: [CY, DAN], removed: [EVE, ...STRANGERS] },
      tiers: {
        added: [{ tier: 1, user_cid: CY, position: 'EKCH TWR', instructor_cid: ADA }],
        removed: [{ tier: 1, id: extra, user_cid: STRANGERS[0], position: 'EKCH TWR' }],
      },
      error: null,
    });
    expect([...hub.roster].sort()).toEqual([ADA, BO, CY, DAN, FOX]);
    expect(hub.tiers[1].map((r) => [r.user_cid, r.position, r.instructor_cid])).toEqual([
      [BO, 'EKCH TWR', ADA],
      [FOX, 'EKCH TWR', ADA],
      [CY, 'EKCH TWR', ADA],
    ]);
    // Members join before their endorsements, and leave after theirs are gone.
    expect(changes()).toEqual([
      `POST /facility/roster/${CY}`,
      `POST /facility/roster/${DAN}`,
      `DELETE /facility/endorsements/tier-1/${extra}`,
      'POST /facility/endorsements/tier-1',
      `DELETE /facility/roster/${EVE}`,
      ...STRANGERS.map((c) => `DELETE /facility/roster/${c}`),
    ]);

    const status = await runCliAsync(['division:status', '--json'], env);
    expect(status.code, status.stderr).toBe(0);
    const shown = JSON.parse(status.stdout) as { last_sync: Record<string, unknown> };
    expect(shown).toMatchObject({ pending: [], refused: [] });
    expect(shown.last_sync).toMatchObject({
      id: report.id,
      forced: false,
      roster: report.roster,
      tiers: report.tiers,
      error: null,
    });
    expect(typeof shown.last_sync['finished_at']).toBe('string');
    const text = await runCliAsync(['division:status'], env);
    expect(text.stdout).toContain(`Last sync #${report.id}: started`);
    expect(text.stdout).toContain(`roster: 2 added: ${CY}, ${DAN}`);

    // In step: a second run changes nothing.
    hub.requests.splice(0);
    const again = await sync();
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toContain('roster: 0 added');
    expect(again.stdout).toContain('tier endorsements: 0 removed');
    expect(changes()).toEqual([]);
  });

  it('--dry-run prints what it would do and changes nothing, on the hub or in Sector', async () => {
    await setUp();
    const before = await tableRows(ctx!.databaseUrl, ALL_TABLES);
    const run = await sync('--dry-run');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('(dry run: nothing changed)');
    expect(run.stdout).toContain(`roster: 2 would be added: ${CY}, ${DAN}`);
    expect(run.stdout).toContain(`roster: 3 would be removed: ${EVE}, ${STRANGERS.join(', ')}`);
    expect(run.stdout).toContain(`tier endorsements: 1 would be added: ${CY} T1 EKCH TWR`);
    expect(changes()).toEqual([]);
    expect(hub.roster.size).toBe(6);
    expect(await tableRows(ctx!.databaseUrl, ALL_TABLES)).toEqual(before);
  });

  it('refuses a run that would remove more than half of the hub roster, unless --force', async () => {
    ctx = await createTestContext();
    const ours = Array.from({ length: 40 }, (_, i) => 1_100_000 + i);
    await ctx.load(buildDivision({ users: ours.map((id) => buildUser({ id, ...active })) }));
    env = { DATABASE_URL: ctx.databaseUrl, ...hubEnv(hub) };
    for (const cid of ours) hub.roster.add(cid);
    for (let i = 0; i < 60; i++) hub.roster.add(1_200_000 + i);

    const refused = await sync();
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toBe(
      "sector: the sync would remove 60 of the hub's 100 roster members (more than half): refused, nothing changed (npx sector division:sync --force applies it)\n",
    );
    expect(changes()).toEqual([]);
    expect(hub.roster.size).toBe(100);
    // Recorded, so that division:status shows a refused daily run.
    const { division_syncs: recorded } = await tableRows(ctx.databaseUrl, ['division_syncs']);
    expect(recorded.map((r) => JSON.parse(r) as Record<string, unknown>)).toMatchObject([
      {
        roster_removed: 0,
        finished_at: expect.any(Number) as unknown,
        error: expect.stringContaining('refused, nothing changed') as unknown,
      },
    ]);

    const forced = await sync('--force', '--json');
    expect(forced.code, forced.stderr).toBe(0);
    expect((JSON.parse(forced.stdout) as Report).roster.removed).toHaveLength(60);
    expect([...hub.roster].sort()).toEqual(ours);
    const status = JSON.parse((await runCliAsync(['division:status', '--json'], env)).stdout) as { last_sync: Record<string, unknown> };
    expect(status.last_sync).toMatchObject({ forced: true, error: null });
  });

  it('stops when the hub fails midway, with what was done recorded; the next run does the rest', async () => {
    const extra = await setUp();
    // Three reads, two members added, one endorsement removed: then the hub fails.
    hub.failAfter = 6;
    const run = await sync();
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("sector: the division's hub stopped the sync: POST /facility/endorsements/tier-1: HTTP 500 Server Error\n");
    expect(run.stdout).toContain(`roster: 2 added: ${CY}, ${DAN}`);
    expect(run.stdout).toContain(`tier endorsements: 1 removed: ${STRANGERS[0]} T1 EKCH TWR (#${extra})`);
    expect(changes()).toEqual([
      `POST /facility/roster/${CY}`,
      `POST /facility/roster/${DAN}`,
      `DELETE /facility/endorsements/tier-1/${extra}`,
    ]);
    const status = JSON.parse((await runCliAsync(['division:status', '--json'], env)).stdout) as { last_sync: Record<string, unknown> };
    expect(status.last_sync).toMatchObject({
      roster: { added: [CY, DAN], removed: [] },
      tiers: { added: [], removed: [{ tier: 1, id: extra, user_cid: STRANGERS[0], position: 'EKCH TWR' }] },
      error: "the division's hub stopped the sync: POST /facility/endorsements/tier-1: HTTP 500 Server Error",
    });

    hub.mode = 'up';
    const rest = await sync('--json');
    expect(rest.code, rest.stderr).toBe(0);
    expect(JSON.parse(rest.stdout)).toMatchObject({
      roster: { added: [], removed: [EVE, ...STRANGERS] },
      tiers: { added: [{ user_cid: CY }], removed: [] },
    });
    expect([...hub.roster].sort()).toEqual([ADA, BO, CY, DAN, FOX]);
  });

  it('says in one line that DIVISION_API is not set, and exits non-zero', async () => {
    ctx = await createTestContext();
    const run = await runCliAsync(['division:sync'], { DATABASE_URL: ctx.databaseUrl });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("sector: DIVISION_API is not set: there is no division's hub to reconcile with (see docs/division-api.md)\n");
  });
});
