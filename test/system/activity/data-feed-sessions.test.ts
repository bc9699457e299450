// Controlling sessions recorded from the data feed (contract §16), against a stand-in of the
// network's feed (test/support/data-feed-stand-in.ts). The poll is the job's handler, called as
// the server's job runner calls it.
import net, { type AddressInfo } from 'node:net';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { openDatabase } from '../../../src/core/db/connection.js';
import { createServices } from '../../../src/app/services.js';
import { migrateToLatest, migratorOf } from '../../../src/core/db/migrate.js';
import { FeedPollError, FeedPollService } from '../../../src/features/activity/feed.service.js';
import { dataFeedWorker } from '../../../src/features/activity/data-feed.worker.js';
import { Workers } from '../../../src/core/workers/workers.js';
import { createTestContext, freshDatabaseUrl, type TestContext } from '../../support/context.js';
import { startDataFeedStandIn, type DataFeedStandIn } from '../../support/data-feed-stand-in.js';
import { ADA, BO, buildDivision, buildPosition, buildUser } from '../../support/factories.js';

const T0 = Date.UTC(2026, 10, 25, 10, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const min = 60_000;

describe('sessions from the data feed', () => {
  let feed: DataFeedStandIn;
  let ctx: TestContext;
  beforeAll(async () => {
    feed = await startDataFeedStandIn();
  });
  afterAll(async () => feed.close());
  beforeEach(async () => {
    ctx = await createTestContext({ now: T0 });
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Finland'],
        users: [buildUser(), buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg' })],
        positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP'), buildPosition('EKDK_CTR'), buildPosition('EFHK_TWR')],
      }),
    );
    feed.setMode('up');
  });
  afterEach(async () => ctx.close());

  const poll = () =>
    new FeedPollService({
      repos: ctx.services.repos,
      writer: ctx.services.writer,
      feed: { url: feed.url, intervalS: 1 },
      clock: ctx.services.clock,
    }).poll();

  async function sessions(url = ctx.databaseUrl) {
    const db = openDatabase(url);
    try {
      const rows = await db.kysely
        .selectFrom('atc_sessions')
        .select(['cid', 'callsign', 'position', 'logon_time', 'last_seen', 'ended_at'])
        .orderBy('cid')
        .orderBy('logon_time')
        .execute();
      return rows.map((r) => ({
        ...r,
        logon_time: iso(r.logon_time),
        last_seen: iso(r.last_seen),
        ended_at: r.ended_at === null ? null : iso(r.ended_at),
      }));
    } finally {
      await db.close();
    }
  }

  it('starts sessions, continues them across a failed and a garbage poll, and ends them at their last sighting', async () => {
    // The server's clock: every document below was generated in its past.
    ctx.setNow(T0 + 20 * min);
    const adaOn = iso(T0 - 30 * min);
    const stranger = 1_444_444; // not a user of Sector (yet): kept all the same
    feed.set(iso(T0), [
      { cid: ADA, callsign: 'EKCH_TWR', logon_time: adaOn },
      { cid: stranger, callsign: 'EKDK_CTR', logon_time: iso(T0 - 5 * min), facility: 6 },
      { cid: BO, callsign: 'ESSA_TWR', logon_time: adaOn }, // not a position of the division
    ]);
    expect(await poll()).toMatchObject({ sightings: 2, ended: [] });

    feed.setMode({ status: 500 });
    await expect(poll()).rejects.toThrow(new FeedPollError(`data feed failed: ${new URL(feed.url).host}: HTTP 500`));
    feed.setMode('garbage');
    await expect(poll()).rejects.toThrow(/data feed responded with something that is not JSON/);
    expect((await sessions()).map((s) => s.ended_at)).toEqual([null, null]);

    feed.setMode('up');
    feed.set(iso(T0 + 3 * min), [
      { cid: ADA, callsign: 'EKCH_TWR', logon_time: adaOn },
      { cid: stranger, callsign: 'EKDK_CTR', logon_time: iso(T0 - 5 * min), facility: 6 },
    ]);
    await poll();
    // A restart: another process (a new database handle) polls next; the sessions go on.
    const other = openDatabase(ctx.databaseUrl);
    feed.set(iso(T0 + 4 * min), [{ cid: ADA, callsign: 'EKCH_TWR', logon_time: adaOn }]);
    const { writer, repos } = createServices(loadConfig({ DATABASE_URL: ctx.databaseUrl, LOG_LEVEL: 'silent' }), other, ctx.services.clock);
    expect(
      await new FeedPollService({ repos, writer, feed: { url: feed.url, intervalS: 1 }, clock: ctx.services.clock }).poll(),
    ).toMatchObject({
      sightings: 1,
      ended: [stranger],
    });
    await other.close();
    feed.set(iso(T0 + 5 * min), []);
    expect(await poll()).toMatchObject({ sightings: 0, ended: [ADA] });

    expect(await sessions()).toEqual([
      {
        cid: ADA,
        callsign: 'EKCH_TWR',
        position: 'EKCH_TWR',
        logon_time: adaOn,
        last_seen: iso(T0 + 4 * min),
        ended_at: iso(T0 + 4 * min),
      },
      {
        cid: stranger,
        callsign: 'EKDK_CTR',
        position: 'EKDK_CTR',
        logon_time: iso(T0 - 5 * min),
        last_seen: iso(T0 + 3 * min),
        ended_at: iso(T0 + 3 * min),
      },
    ]);

    // A new connection is a new session.
    feed.set(iso(T0 + 20 * min), [{ cid: ADA, callsign: 'EKCH_TWR', logon_time: iso(T0 + 15 * min) }]);
    await poll();
    expect((await sessions()).filter((s) => s.cid === ADA)).toHaveLength(2);
  });

  it('counts EKCH_A_TWR and EKCH_1_TWR for EKCH_TWR, and not EKCHX_TWR, observers or a facility of 0', async () => {
    feed.set(iso(T0), [
      { cid: 1_500_001, callsign: 'EKCH_A_TWR', logon_time: iso(T0 - min) },
      { cid: 1_500_002, callsign: 'ekch_1_twr', logon_time: iso(T0 - min) },
      { cid: 1_500_003, callsign: 'EKCHX_TWR', logon_time: iso(T0 - min) },
      { cid: 1_500_004, callsign: 'EKCH_TWR', logon_time: iso(T0 - min), facility: 0 },
      { cid: 1_500_005, callsign: 'EKCH_OBS', logon_time: iso(T0 - min), facility: 0 },
      { cid: 1_500_006, callsign: 'EFHK_W_TWR', logon_time: iso(T0 - min) },
      { cid: 1_500_007, callsign: 'EKCH_TWR_X', logon_time: iso(T0 - min) },
    ]);
    await poll();
    expect((await sessions()).map((s) => [s.cid, s.callsign, s.position])).toEqual([
      [1_500_001, 'EKCH_A_TWR', 'EKCH_TWR'],
      [1_500_002, 'EKCH_1_TWR', 'EKCH_TWR'],
      [1_500_006, 'EFHK_W_TWR', 'EFHK_TWR'],
    ]);
  });

  it('refuses a feed that is not the documented shape, a timeout and an over-long wait without recording anything', async () => {
    feed.setMode({ status: 404 });
    await expect(poll()).rejects.toThrow(/HTTP 404/);
    feed.setMode('up');
    feed.set('not a time', [{ cid: ADA, callsign: 'EKCH_TWR', logon_time: iso(T0) }]);
    await expect(poll()).rejects.toThrow(/unexpected shape: general.update_timestamp is not an instant/);
    feed.setMode('timeout');
    await expect(
      new FeedPollService({
        repos: ctx.services.repos,
        writer: ctx.services.writer,
        feed: { url: feed.url, intervalS: 1 },
        clock: ctx.services.clock,
      }).poll(),
    ).rejects.toThrow(`data feed failed: ${new URL(feed.url).host}: no response within 5000 ms`);
    expect(await sessions()).toEqual([]);
  });

  it('names the host it could not reach, and the failure in words', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    await expect(
      new FeedPollService({
        repos: ctx.services.repos,
        writer: ctx.services.writer,
        feed: { url: `http://127.0.0.1:${port}/vatsim-data.json`, intervalS: 1 },
        clock: ctx.services.clock,
      }).poll(),
    ).rejects.toThrow(new FeedPollError(`data feed failed: 127.0.0.1:${port}: connection refused (ECONNREFUSED)`, true));
  });

  it('names the host whose name it could not find', async () => {
    // .invalid never resolves (RFC 6761).
    await expect(
      new FeedPollService({
        repos: ctx.services.repos,
        writer: ctx.services.writer,
        feed: { url: 'https://nonexistent.invalid/v3/vatsim-data.json', intervalS: 1 },
        clock: ctx.services.clock,
      }).poll(),
    ).rejects.toThrow(new FeedPollError('data feed failed: nonexistent.invalid: host name not found (ENOTFOUND)', true));
  });

  it('refuses a feed document dated more than two minutes ahead of the clock, and records a slightly early one at the clock: no stored time is later than now', async () => {
    feed.set('2099-01-01T00:00:00Z', [{ cid: ADA, callsign: 'EKCH_TWR', logon_time: iso(T0 - 30 * min) }]);
    await expect(poll()).rejects.toThrow(
      new FeedPollError(
        `data feed responded with a document dated 2099-01-01T00:00:00.000000Z, more than 2 minutes ahead of this server's clock (${iso(T0).replace('Z', '000Z')})`,
      ),
    );
    expect(await sessions()).toEqual([]);

    // A clock a minute behind the network's: the document is taken, its sightings at this clock's time.
    feed.set(iso(T0 + min), [
      { cid: ADA, callsign: 'EKCH_TWR', logon_time: iso(T0 - 30 * min) },
      { cid: BO, callsign: 'EKCH_APP', logon_time: iso(T0 + 30_000) },
    ]);
    await poll();
    ctx.setNow(T0 + 2 * min);
    feed.set(iso(T0 + 2 * min), []);
    expect((await poll()).ended.sort((a, b) => a - b)).toEqual([ADA, BO]);
    expect(await sessions()).toEqual([
      { cid: ADA, callsign: 'EKCH_TWR', position: 'EKCH_TWR', logon_time: iso(T0 - 30 * min), last_seen: iso(T0), ended_at: iso(T0) },
      { cid: BO, callsign: 'EKCH_APP', position: 'EKCH_APP', logon_time: iso(T0), last_seen: iso(T0), ended_at: iso(T0) },
    ]);
  });

  it('merges a controller the feed lists twice into one session (the earliest logon) and records everyone else', async () => {
    feed.set(iso(T0), [
      { cid: ADA, callsign: 'EKCH_TWR', logon_time: iso(T0 - 30 * min) },
      { cid: ADA, callsign: 'EKCH_TWR', logon_time: iso(T0 - 30 * min) },
      { cid: BO, callsign: 'EKCH_APP', logon_time: iso(T0 - 10 * min) },
      { cid: BO, callsign: 'ekch_app', logon_time: iso(T0 - 20 * min) },
      { cid: 1_444_444, callsign: 'EKDK_CTR', logon_time: iso(T0 - 5 * min), facility: 6 },
    ]);
    expect(await poll()).toMatchObject({ sightings: 3, ended: [] });
    ctx.setNow(T0 + min);
    feed.set(iso(T0 + min), [
      { cid: BO, callsign: 'EKCH_APP', logon_time: iso(T0 - 20 * min) },
      { cid: BO, callsign: 'EKCH_APP', logon_time: iso(T0 - 10 * min) },
    ]);
    const second = await poll();
    expect(second.sightings).toBe(1);
    expect(second.ended.sort((a, b) => a - b)).toEqual([ADA, 1_444_444]);
    expect((await sessions()).map((s) => [s.cid, s.callsign, s.logon_time, s.last_seen, s.ended_at])).toEqual([
      [ADA, 'EKCH_TWR', iso(T0 - 30 * min), iso(T0), iso(T0)],
      [BO, 'EKCH_APP', iso(T0 - 20 * min), iso(T0 + min), null],
      [1_444_444, 'EKDK_CTR', iso(T0 - 5 * min), iso(T0), iso(T0)],
    ]);
  });

  it('starts a session whose logon time is ahead of its sighting (clock skew) at its first sighting, and does not split it across polls', async () => {
    const logon = iso(T0 + 90_000);
    for (const at of [T0, T0 + min, T0 + 2 * min, T0 + 3 * min]) {
      ctx.setNow(at);
      feed.set(iso(at), [{ cid: ADA, callsign: 'EKCH_TWR', logon_time: logon }]);
      expect(await poll()).toMatchObject({ sightings: 1, ended: [] });
    }
    ctx.setNow(T0 + 4 * min);
    feed.set(iso(T0 + 4 * min), []);
    expect(await poll()).toMatchObject({ ended: [ADA] });
    expect(await sessions()).toEqual([
      {
        cid: ADA,
        callsign: 'EKCH_TWR',
        position: 'EKCH_TWR',
        logon_time: iso(T0),
        last_seen: iso(T0 + 3 * min),
        ended_at: iso(T0 + 3 * min),
      },
    ]);
  });

  it('logs a poll that fails for a reason of its own (its table gone) once until it succeeds again, without a stack', async () => {
    const own = await createTestContext({ now: T0, env: { DATA_FEED_URL: feed.url, DATA_FEED_INTERVAL_S: '1' } });
    const lines: Array<{ level: string; obj: object; msg: string }> = [];
    const log = {
      info: (obj: object, msg: string) => lines.push({ level: 'info', obj, msg }),
      warn: (obj: object, msg: string) => lines.push({ level: 'warn', obj, msg }),
      error: (obj: object, msg: string) => lines.push({ level: 'error', obj, msg }),
    };
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
    // The fake clock, moved on below, is the workers' and the poll's.
    const clock = () => Date.now();
    const services = createServices(own.services.config, own.services.db, clock);
    const runner = new Workers({
      writer: services.writer,
      clock,
      workers: [
        dataFeedWorker({
          feed: services.config.dataFeed!,
          poll: new FeedPollService({ ...services, feed: services.config.dataFeed!, clock }),
        }),
      ],
    });
    try {
      feed.set(iso(T0), []);
      const before = feed.count();
      await sql`ALTER TABLE atc_sessions RENAME TO atc_sessions_elsewhere`.execute(own.services.db.kysely);
      runner.start(log);
      for (let i = 0; i < 3; i++) {
        await vi.advanceTimersByTimeAsync(i === 0 ? 0 : 1000);
        await runner.settled();
      }
      await sql`ALTER TABLE atc_sessions_elsewhere RENAME TO atc_sessions`.execute(own.services.db.kysely);
      await vi.advanceTimersByTimeAsync(1000);
      await runner.settled();
      expect(feed.count() - before).toBe(4);
      expect(lines.map((l) => [l.level, l.msg])).toEqual([
        [
          'warn',
          expect.stringMatching(
            /^data feed poll failed: .*atc_sessions.*; sessions continue at the next good poll \(logged once until it responds\)$/,
          ),
        ],
        ['info', 'data feed responds again'],
      ]);
      expect(lines.map((l) => l.obj)).toEqual([{ job: 'data-feed' }, { job: 'data-feed' }]);
    } finally {
      vi.useRealTimers();
      await runner.stop();
      await own.close();
    }
  });
});

describe('sessions a feed dated in the future left behind', () => {
  it('an upgrade ends the sessions a feed document dated in the future stored: no stored time stays later than now', async () => {
    const url = freshDatabaseUrl();
    const db = openDatabase(url);
    try {
      const { error } = await migratorOf(db).migrateTo('0017_roster_staging');
      expect(error).toBeUndefined();
      const future = Date.UTC(2099, 0, 1);
      await db.kysely
        .insertInto('atc_sessions')
        .values({
          cid: ADA,
          callsign: 'EKCH_TWR',
          position: 'EKCH_TWR',
          name: null,
          frequency: null,
          logon_time: future,
          last_seen: future,
          ended_at: null,
          source: 'feed',
        } as never)
        .execute();
      const before = Date.now();
      await migrateToLatest(db);
      const [row] = await db.kysely.selectFrom('atc_sessions').select(['logon_time', 'last_seen', 'ended_at']).execute();
      expect(row!.last_seen).toBeGreaterThanOrEqual(before);
      expect(row!.last_seen).toBeLessThanOrEqual(Date.now());
      expect(row!.logon_time).toBeLessThanOrEqual(Date.now());
    } finally {
      await db.close();
    }
  });
});
