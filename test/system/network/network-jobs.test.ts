// The roster sync, the data feed poll and the activity recompute as scheduled jobs of the server:
// with two instances on one PostgreSQL each runs once per interval across both; a feed that keeps
// failing is one warning, not one per poll.
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { freshDatabaseUrl, TEST_DIALECT } from '../../support/context.js';
import { member, startCoreApiStandIn, type CoreApiStandIn } from '../../support/core-api-stand-in.js';
import { startDataFeedStandIn, type DataFeedStandIn } from '../../support/data-feed-stand-in.js';
import { buildPosition } from '../../support/factories.js';
import { runCliAsync, startServer, type ServerProcess } from '../../support/processes.js';
import { importData } from '../../support/seed.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('scheduled network jobs', () => {
  let feed: DataFeedStandIn;
  let api: CoreApiStandIn;
  const started: ServerProcess[] = [];
  beforeAll(async () => {
    feed = await startDataFeedStandIn();
    api = await startCoreApiStandIn();
  });
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop('SIGKILL')));
    await feed.close();
    await api.close();
  });

  async function prepare() {
    for (let id = 1_900_001; id <= 1_900_020; id++) api.members.set(id, member(id));
    const env = {
      DATABASE_URL: freshDatabaseUrl(),
      DIVISION: 'EUD',
      CORE_API_URL: api.url,
      CORE_API_KEY: api.key,
      ROSTER_SYNC_HOURS: '1',
      DATA_FEED_URL: feed.url,
      DATA_FEED_INTERVAL_S: '1',
      ACTIVITY_HOURS: '10',
    };
    await importData(env, { areas: ['Denmark'], positions: [buildPosition('EKCH_TWR')] });
    return env;
  }

  it.runIf(TEST_DIALECT === 'postgres')('two instances sync the roster once and poll the feed once per interval between them', async () => {
    const env = await prepare();
    const at = new Date().toISOString();
    feed.set(at, [{ cid: 1_900_001, callsign: 'EKCH_A_TWR', logon_time: at }]);
    const servers = await Promise.all([startServer(env), startServer(env)]);
    started.push(...servers);
    await waitFor('six polls of the feed', () => feed.count() >= 6);
    await waitFor('the roster', async () => {
      const db = openDatabase(env.DATABASE_URL);
      try {
        return (await db.kysely.selectFrom('users').select('id').execute()).length === 20;
      } finally {
        await db.close();
      }
    });
    await sleep(1500);
    expect(api.requests.filter((p) => p.startsWith('/v2/orgs/'))).toEqual(['/v2/orgs/division/EUD?limit=1000&offset=0']);
    // Each poll waits for the interval after the one before, whichever instance made it.
    const times = feed.times();
    const gaps = times.slice(1).map((t, i) => t - times[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(900);

    const online = (await (await fetch(`${servers[1]!.url}/api/online`)).json()) as { data: unknown[] };
    expect(online.data).toEqual([{ callsign: 'EKCH_A_TWR', position: 'EKCH_TWR', frequency: '118.105', since: expect.any(String) }]);
    const metrics = (await Promise.all(servers.map(async (s) => (await fetch(`${s.url}/metrics`)).text()))).join('\n');
    expect(metrics).toMatch(/sector_job_last_success_timestamp_seconds\{job="data-feed"\} \d+/);
    expect(metrics).toMatch(/sector_job_last_success_timestamp_seconds\{job="roster-sync"\} \d+/);
    expect(metrics).toMatch(/sector_job_last_success_timestamp_seconds\{job="activity-recompute"\} \d+/);
    await Promise.all(servers.map((s) => s.stop()));
  });

  it("roster:sync from the command line during the server's scheduled sync refuses with one line; the server's completes", async () => {
    const env = { ...(await prepare()), DATA_FEED_URL: 'off' };
    api.fail('/v2/orgs/division/EUD', { delayMs: 3000 });
    const mark = api.requests.length;
    const server = await startServer(env);
    started.push(server);
    await waitFor("the server's sync to ask for the roster", () => api.requests.slice(mark).some((p) => p.startsWith('/v2/orgs/')));
    const cli = await runCliAsync(['roster:sync'], env);
    expect(cli.code).toBe(1);
    expect(cli.stdout).toBe('');
    expect(cli.stderr).toMatch(
      /^sector: another roster sync is running \(started [^)]+\): refused, nothing changed; try again once it has finished\n$/,
    );
    expect(api.requests.slice(mark).filter((p) => p.startsWith('/v2/orgs/'))).toHaveLength(1);
    await waitFor("the server's sync", async () => {
      const db = openDatabase(env.DATABASE_URL);
      try {
        return (await db.kysely.selectFrom('users').select('id').execute()).length === 20;
      } finally {
        await db.close();
      }
    });
    api.clearFaults();
    await waitFor('the turn to be free', async () => {
      const db = openDatabase(env.DATABASE_URL);
      try {
        const held = await db.kysely
          .selectFrom('job_leases')
          .select('name')
          .where('name', '=', 'roster-sync')
          .where('lease_until', '>', Date.now())
          .execute();
        return held.length === 0;
      } finally {
        await db.close();
      }
    });
    const after = await runCliAsync(['roster:sync', '--json'], env);
    expect(after.stderr).toBe('');
    expect(JSON.parse(after.stdout)).toMatchObject({ roster: 20, created: [], updated: [], unchanged: 20 });
    await server.stop();
  });

  it('a feed that keeps failing is logged once, counted every time, and the server keeps responding', async () => {
    const env = await prepare();
    feed.setMode({ status: 503 });
    const server = await startServer({ ...env, CORE_API_KEY: '' });
    started.push(server);
    const before = feed.count();
    await waitFor('four polls of the feed', () => feed.count() >= before + 4);
    await sleep(300);
    expect(server.logs().match(/data feed failed: 127\.0\.0\.1:\d+: HTTP 503/g)).toHaveLength(1);
    // It responds: no network is missing, so no word about turning the feed off.
    expect(server.logs()).not.toContain('DATA_FEED_URL=off');
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    expect(Number(/sector_job_failures_total\{job="data-feed"\} (\d+)/.exec(metrics)?.[1])).toBeGreaterThanOrEqual(3);
    expect((await fetch(`${server.url}/api/online`)).status).toBe(200);
    feed.setMode('up');
    await waitFor('the feed responding again', () => server.logs().includes('data feed responds again'));
  });

  it('a feed that does not respond at all (no internet) says once that DATA_FEED_URL=off turns it off', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const env = await prepare();
    const server = await startServer({ ...env, CORE_API_KEY: '', DATA_FEED_URL: `http://127.0.0.1:${port}/vatsim-data.json` });
    started.push(server);
    const failures = async () =>
      Number(/sector_job_failures_total\{job="data-feed"\} (\d+)/.exec(await (await fetch(`${server.url}/metrics`)).text())?.[1]);
    await waitFor('three failed polls', async () => (await failures()) >= 3);
    const warnings = server.logs().match(/data feed failed: .*/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /data feed failed: 127\.0\.0\.1:\d+: connection refused \(ECONNREFUSED\); .*; without internet, DATA_FEED_URL=off turns the data feed off/,
    );
  });
});
