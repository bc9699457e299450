// The reconcile with the division's hub (contract §22) as the daily worker, on fake time across two
// instances over one database, and beside the outbox: a member's tier endorsements wait while a
// request about one of them is still open.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { type Db, openDatabase } from '../../../src/core/db/connection.js';
import { migrateToLatest } from '../../../src/core/db/migrate.js';
import { createServices, type ComposedServices } from '../../../src/app/services.js';
import { Lease } from '../../../src/core/workers/lease.js';
import { Workers } from '../../../src/core/workers/workers.js';
import { divisionSyncWorker, DAY_MS } from '../../../src/features/division-api/division-sync.worker.js';
import { createTestContext, freshDatabaseUrl, type TestContext } from '../../support/context.js';
import { startHubStandIn, type HubStandIn, hubEnv } from '../../support/division-hub-stand-in.js';
import { ADA, BO, buildDivision, buildPosition, buildUser } from '../../support/factories.js';

const CY = 1000003;
const STRANGER = 1000099;
const T0 = Date.UTC(2026, 5, 1, 12);
const active = { atc_active_areas: { Denmark: true } };

let hub: HubStandIn;
beforeAll(async () => {
  hub = await startHubStandIn();
});
afterAll(async () => hub.close());
const settings = () => ({ ...hubEnv(hub), DIVISION_API_TIMEOUT_MS: '2000' });
const reads = () => hub.requests.filter((r) => r.method === 'GET' && r.path === '/facility/roster').length;

describe('the daily division sync across two instances, on fake time', () => {
  const dbs: Db[] = [];
  const services: ComposedServices[] = [];
  const runners: Workers[] = [];

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
    const url = freshDatabaseUrl();
    const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', DATA_FEED_URL: 'off', ...settings() });
    for (let i = 0; i < 2; i++) dbs.push(openDatabase(url));
    await migrateToLatest(dbs[0]!);
    for (const db of dbs) services.push(createServices(config, db, () => Date.now()));
    await services[0]!.imports.run(
      buildDivision({ users: [buildUser({ ...active }), buildUser({ id: BO, first_name: 'Bo', ...active })] }),
    );
    hub.roster.add(ADA).add(STRANGER);
  });
  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop().catch(() => {});
    vi.useRealTimers();
    services.splice(0);
    for (const db of dbs.splice(0)) await db.close();
    hub.roster.clear();
    hub.requests.splice(0);
  });

  const runs = async () => (await dbs[0]!.kysely.selectFrom('division_syncs').selectAll().orderBy('id').execute()).length;
  const step = async (ms: number) => {
    await vi.advanceTimersByTimeAsync(ms);
    await Promise.all(runners.map((r) => r.settled()));
  };

  it('runs once a day, on one instance at a time, and each run is recorded', async () => {
    for (const s of services) {
      const worker = divisionSyncWorker({ divisionSync: s.divisionSync! }, 60_000);
      expect(worker).toMatchObject({ name: 'division-sync', runs: 'once', intervalMs: DAY_MS });
      runners.push(new Workers({ writer: s.writer, clock: () => Date.now(), workers: [worker] }));
    }
    for (const r of runners) r.start();
    await step(0);
    expect(reads()).toBe(1);
    expect(await runs()).toBe(1);
    expect([...hub.roster].sort()).toEqual([ADA, BO]);

    hub.roster.add(STRANGER);
    await step(DAY_MS - 1_000);
    expect(reads()).toBe(1);
    expect(hub.roster.has(STRANGER)).toBe(true);
    await step(2_000);
    expect(reads()).toBe(2);
    expect(await runs()).toBe(2);
    expect([...hub.roster].sort()).toEqual([ADA, BO]);
  });

  it('is not registered without DIVISION_API', () => {
    const config = loadConfig({ DATABASE_URL: freshDatabaseUrl(), LOG_LEVEL: 'silent', DATA_FEED_URL: 'off' });
    const off = createServices(config, dbs[0]!, () => Date.now());
    expect(off.divisionSync).toBeNull();
    expect(off.workers.names).not.toContain('division-sync');
    expect(services[0]!.workers.names).toContain('division-sync');
  });
});

describe('the division sync beside the outbox', () => {
  let ctx: TestContext;
  let key: string;
  const drain = async () => {
    const signal = new AbortController().signal;
    for (let i = 0; i < 100; i++) if (!(await ctx.services.divisionApi!.run({ now: () => T0, signal }))) return;
  };

  beforeAll(async () => {
    ctx = await createTestContext({ now: T0, env: settings() });
    await ctx.load({
      ...buildDivision({
        users: [buildUser({ ...active }), buildUser({ id: CY, first_name: 'Cy', rating: 'S2', ...active })],
        roles: [{ user_id: ADA, area: null, role: 'Administrator' }],
        positions: [buildPosition('EKCH_TWR', { required_facility: 'EKCH TWR' })],
      }),
      facilities: [{ name: 'EKCH TWR', tier: 'T1' }],
    });
    key = await ctx.key('edit');
    await drain();
  });
  afterAll(async () => {
    await ctx.close();
    hub.mode = 'up';
    hub.roster.clear();
    hub.tiers[1].splice(0);
    hub.requests.splice(0);
  });

  it("leaves a member's tier endorsements to a request still open about them, and takes them up once it is dismissed", async () => {
    hub.mode = 'refuse';
    hub.refuseMessage = 'User is not in the division.';
    const made = await ctx.request({
      method: 'POST',
      url: '/api/endorsements',
      token: key,
      payload: { user_id: CY, type: 'facility', rating: 'EKCH TWR' },
    });
    expect(made.statusCode, made.body).toBe(201);
    await drain();
    const { refused } = await ctx.services.divisionApi!.status();
    expect(refused).toMatchObject([{ path: '/facility/endorsements/tier-1' }]);
    hub.mode = 'up';

    const first = await ctx.services.divisionSync!.sync();
    expect(first.roster.added).toEqual([ADA, CY]);
    expect(first.tiers.added).toEqual([]);
    expect(first.skipped).toMatchObject([{ user_cid: CY, reason: expect.stringContaining('pending or refused') as unknown }]);
    expect(hub.tiers[1]).toEqual([]);

    await ctx.services.divisionApi!.dismiss(refused[0]!.id);
    const second = await ctx.services.divisionSync!.sync();
    expect(second.tiers.added).toEqual([{ tier: 1, user_cid: CY, position: 'EKCH TWR', instructor_cid: ADA }]);
    expect(hub.tiers[1]).toMatchObject([{ user_cid: CY, position: 'EKCH TWR', instructor_cid: ADA }]);
    expect(await ctx.services.divisionSync!.last()).toMatchObject({ id: second.id, tiers: { added: second.tiers.added } });
  });

  it('refuses a run while another holds the lease, naming when it started', async () => {
    const taken = await Lease.take(ctx.services.writer, () => T0, 'division-sync', 60_000);
    if (!('lease' in taken)) throw new Error('the lease should be free');
    const before = hub.requests.length;
    await expect(ctx.services.divisionSync!.sync()).rejects.toThrow(
      /^another division sync is running \(started 2026-06-01T12:00:00Z, held until 2026-06-01T12:01:00Z unless it makes progress\): refused, nothing changed/,
    );
    expect(hub.requests.length).toBe(before);
    await taken.lease.release();
  });
});
