// The endorsement expiry worker (contract §17) drains a backlog within one interval, on fake time over
// a real database: the runner runs a once-worker again at once while it says there is more, keeping
// its lease between runs so that a second instance never runs it meanwhile.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { type Db, openDatabase } from '../../../src/core/db/connection.js';
import { migrateToLatest } from '../../../src/core/db/migrate.js';
import { createServices, type ComposedServices } from '../../../src/app/services.js';
import type { Worker } from '../../../src/core/workers/worker.js';
import { Workers } from '../../../src/core/workers/workers.js';
import { freshDatabaseUrl } from '../../support/context.js';
import { ADA, buildDivision, buildUser } from '../../support/factories.js';
import { endorsementExpiryWorker } from '../../../src/features/endorsements/expiry.worker.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 12);
const BACKLOG = 2_000;
const INTERVAL = 30_000;

describe('endorsement expiry, a backlog on fake time', () => {
  const dbs: Db[] = [];
  const runners: Workers[] = [];
  const services: ComposedServices[] = [];

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
    const url = freshDatabaseUrl();
    const config = loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', DATA_FEED_URL: 'off' });
    for (let i = 0; i < 2; i++) dbs.push(openDatabase(url));
    await migrateToLatest(dbs[0]!);
    for (const db of dbs) services.push(createServices(config, db, () => Date.now()));
    await services[0]!.imports.run(buildDivision({ users: [buildUser({ rating: 'S3' })] }));
    // Ended a day ago and not yet published: as after a long stop of every instance.
    const rows = Array.from({ length: BACKLOG }, (_, i) => ({
      user_id: ADA,
      type: 'solo' as const,
      rating: null,
      valid_from: T0 - 10 * DAY + i,
      valid_to: T0 - DAY + i,
      revoked: 0,
      revoked_at: null,
      created_at: T0 - 10 * DAY,
      issued_by: null,
      expiry_published_at: null,
    }));
    for (let i = 0; i < rows.length; i += 500)
      await dbs[0]!.kysely
        .insertInto('endorsements')
        .values(rows.slice(i, i + 500))
        .execute();
  });

  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop().catch(() => {});
    vi.useRealTimers();
    services.splice(0);
    for (const db of dbs.splice(0)) await db.close();
  });

  const runner = (worker: Worker) => {
    const r = new Workers({ writer: services[runners.length]!.writer, clock: () => Date.now(), workers: [worker] });
    runners.push(r);
    return r;
  };
  const published = async () => {
    const events = await dbs[0]!.kysely.selectFrom('events').select('body').where('type', '=', 'endorsement.expired').execute();
    return events.map((e) => (JSON.parse(e.body) as { data: { endorsement: { id: number } } }).data.endorsement.id);
  };
  const unpublished = async () =>
    Number(
      (
        await dbs[0]!.kysely
          .selectFrom('endorsements')
          .select((eb) => eb.fn.countAll().as('n'))
          .where('expiry_published_at', 'is', null)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('publishes a backlog of 2,000 expired endorsements within one interval of the worker', async () => {
    const worker = endorsementExpiryWorker(services[0]!);
    expect(worker.intervalMs).toBe(INTERVAL);
    const r = runner(worker);
    r.start();
    await vi.advanceTimersByTimeAsync(0);
    await r.settled();
    await vi.advanceTimersByTimeAsync(INTERVAL - 1);
    await r.settled();
    const ids = await published();
    expect(ids).toHaveLength(BACKLOG);
    expect(new Set(ids).size).toBe(BACKLOG);
    expect(await unpublished()).toBe(0);
  });

  it('keeps the lease while it drains: a second instance, woken after every run, never runs it meanwhile', async () => {
    const runs: string[] = [];
    let active = 0;
    let overlapped = false;
    const instances: Workers[] = [];
    const watched = (who: string, worker: Worker): Worker => ({
      ...worker,
      run: async (ctx) => {
        if (++active > 1) overlapped = true;
        runs.push(who);
        const more = await worker.run(ctx).finally(() => active--);
        // Each run takes 20 s: past the lease of 60 s by the third, were it not renewed.
        vi.setSystemTime(Date.now() + 20_000);
        for (const other of instances) other.wake(worker.name);
        // The wake-ups (and their tries for the lease) happen before the holder's next run.
        for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
        return more;
      },
    });
    instances.push(runner(watched('a', endorsementExpiryWorker(services[0]!))));
    instances.push(runner(watched('b', endorsementExpiryWorker(services[1]!))));
    // Both at once: whichever takes the lease first drains the backlog.
    for (const r of instances) r.start();
    await vi.advanceTimersByTimeAsync(0);
    for (let i = 0; i < 20 && (await unpublished()) > 0; i++) await Promise.all(instances.map((r) => r.settled()));
    await Promise.all(instances.map((r) => r.settled()));
    expect(overlapped).toBe(false);
    // 500 a run: four runs drain the backlog and a fifth finds the end of it, all by the holder.
    expect(runs).toHaveLength(5);
    expect(new Set(runs).size).toBe(1);
    expect(await unpublished()).toBe(0);
    expect(await published()).toHaveLength(BACKLOG);
  });
});
