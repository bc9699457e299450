// The workers (the one background mechanism) on a fake clock, in-process, against a real database:
// once across instances (two runners on one database), take-over after a crash, metrics, the last
// run at stop, and the outbox consumers' concurrency.
import { createRepositories } from '../../../src/app/repositories.js';
import { Registry } from 'prom-client';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../../src/core/db/connection.js';
import { migrateToLatest } from '../../../src/core/db/migrate.js';
import { workerMetrics } from '../../../src/core/workers/metrics.js';
import type { Worker } from '../../../src/core/workers/worker.js';
import { Workers, type WorkersOptions } from '../../../src/core/workers/workers.js';
import { Writer } from '../../../src/core/write.js';
import { freshDatabaseUrl } from '../../support/context.js';

const MINUTE = 60_000;

describe('workers', () => {
  let db: Db;
  const runners: Workers[] = [];

  beforeEach(async () => {
    db = openDatabase(freshDatabaseUrl());
    await migrateToLatest(db);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(Date.UTC(2026, 0, 1));
  });

  afterEach(async () => {
    vi.useRealTimers();
    for (const runner of runners.splice(0)) await runner.stop().catch(() => {});
    await db.close();
  });

  const runner = (workers: Worker[], extra: Partial<WorkersOptions> = {}) => {
    const clock = () => Date.now();
    const r = new Workers({
      writer: new Writer(db, clock, { networkSync: false, mail: false }, () => {}, createRepositories),
      clock,
      workers,
      ...extra,
    });
    runners.push(r);
    return r;
  };

  /** Moves the fake clock on, then waits for the runs (and their database writes) it started. */
  const step = async (ms: number, ...of: Workers[]) => {
    await vi.advanceTimersByTimeAsync(ms);
    await Promise.all(of.map((r) => r.settled()));
  };

  it('runs a job once per interval across two instances, never both at once', async () => {
    const runs: string[] = [];
    let active = 0;
    let overlapped = false;
    const job = (who: string): Worker => ({
      name: 'tally',
      runs: 'once',
      intervalMs: 10 * MINUTE,
      leaseMs: MINUTE,
      run: async () => {
        active++;
        if (active > 1) overlapped = true;
        runs.push(who);
        await Promise.resolve();
        active--;
      },
    });
    const a = runner([job('a')]);
    const b = runner([job('b')]);
    a.start();
    b.start();
    await step(0, a, b);
    expect(runs).toHaveLength(1);
    for (let i = 0; i < 6; i++) await step(10 * MINUTE, a, b);
    expect(runs).toHaveLength(7);
    expect(overlapped).toBe(false);
    const row = await db.kysely.selectFrom('job_leases').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ name: 'tally', last_success_at: Date.now() });
  });

  it('lets another instance take over when the holder dies in the middle of a run', async () => {
    const runs: string[] = [];
    // a's run does not end (until the test stops it), as if its process had been killed: its lease must lapse.
    const hang: Worker['run'] = (ctx) =>
      new Promise((resolve) => (runs.push('a'), ctx.signal.addEventListener('abort', () => resolve(undefined))));
    const a = runner([{ name: 'sync', runs: 'once', intervalMs: 5 * MINUTE, leaseMs: 2 * MINUTE, run: hang }]);
    const b = runner([
      {
        name: 'sync',
        runs: 'once',
        intervalMs: 5 * MINUTE,
        startDelayMs: 1000,
        leaseMs: 2 * MINUTE,
        run: async () => void runs.push('b'),
      },
    ]);
    a.start();
    await vi.advanceTimersByTimeAsync(0);
    await vi.waitFor(() => expect(runs).toEqual(['a']));
    b.start();
    await step(1000, b);
    expect(runs).toEqual(['a']); // a holds the lease
    await step(2 * MINUTE, b);
    expect(runs).toEqual(['a', 'b']);
  });

  it('counts failures and durations per job, records the last success, and runs again at the next interval', async () => {
    const registry = new Registry();
    let fail = true;
    const jobs: Worker[] = [
      {
        name: 'flaky',
        runs: 'once',
        intervalMs: MINUTE,
        startDelayMs: MINUTE,
        leaseMs: MINUTE,
        run: async () => {
          vi.advanceTimersByTime(250);
          if (fail) throw new Error('feed unreachable');
        },
      },
    ];
    const warnings: string[] = [];
    const r = runner(jobs, { observer: workerMetrics(registry, ['flaky']) });
    r.start({ info() {}, warn: (_o, msg) => void warnings.push(msg), error() {} });
    await step(MINUTE, r);
    let text = await registry.metrics();
    expect(text).toContain('sector_job_failures_total{job="flaky"} 1');
    expect(text).not.toContain('sector_job_last_success_timestamp_seconds{job="flaky"}');
    expect(warnings).toEqual(['a worker run failed; it runs again at its next interval']);
    fail = false;
    await step(MINUTE, r);
    text = await registry.metrics();
    expect(text).toContain('sector_job_failures_total{job="flaky"} 1');
    expect(text).toContain(`sector_job_last_success_timestamp_seconds{job="flaky"} ${Math.floor(Date.now() / 1000)}`);
    expect(text).toContain('sector_job_duration_seconds_count{job="flaky"} 2');
    expect(text).toContain('sector_job_duration_seconds_sum{job="flaky"} 0.5');
  });

  it('runs a worker of every instance without a lease, and at stop waits for the run under way before the last one', async () => {
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let calls = 0;
    const r = runner([
      {
        name: 'api-key-use',
        runs: 'everywhere',
        intervalMs: 30_000,
        startDelayMs: 30_000,
        runAtStop: true,
        run: async () => {
          const n = ++calls;
          order.push(`write ${n}`);
          if (n === 1) await held;
          order.push(`written ${n}`);
        },
      },
    ]);
    r.start();
    await vi.advanceTimersByTimeAsync(30_000);
    expect(order).toEqual(['write 1']);
    const stopped = r.stop(0).then(() => order.push('stopped'));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(order).toEqual(['write 1']); // waits for the run under way
    release();
    await stopped;
    expect(order).toEqual(['write 1', 'written 1', 'write 2', 'written 2', 'stopped']);
    expect(await db.kysely.selectFrom('job_leases').selectAll().execute()).toEqual([]);
  });

  it('rejects stop() when the last run fails, and refuses two workers of one name', async () => {
    const r = runner([
      {
        name: 'flush',
        runs: 'everywhere',
        intervalMs: 1000,
        startDelayMs: 1000,
        runAtStop: true,
        run: () => Promise.reject(new Error('gone')),
      },
    ]);
    r.start();
    await expect(r.stop(0)).rejects.toThrow('flush: gone');
    const twice: Worker = { name: 'x', runs: 'once', intervalMs: 1, run: async () => {} };
    expect(() => runner([twice, twice])).toThrow('two workers are named "x"');
  });

  it('runs a consumer once per poll while idle, once per burst of wake-ups, and in all its slots once a run takes work; a wake-up runs it at once', async () => {
    let due = 0;
    let active = 0;
    let most = 0;
    let runs = 0;
    const consumer: Worker = {
      name: 'consumer',
      runs: 'everywhere',
      intervalMs: 1000,
      concurrency: 4,
      run: async (ctx) => {
        runs++;
        if (due === 0) return false;
        due--;
        ctx.took();
        most = Math.max(most, ++active);
        await new Promise((resolve) => setTimeout(resolve, 100));
        active--;
        return true;
      },
    };
    const r = runner([consumer]);
    r.start();
    await step(0, r);
    await step(3000, r);
    // Idle: one run at start and one per poll.
    expect(runs).toBe(4);
    // Wake-ups in one turn of the event loop (a burst of commits) start one run, not one each.
    for (let i = 0; i < 20; i++) r.wake('consumer');
    await r.settled();
    expect(runs).toBe(5);
    due = 12;
    r.wake('consumer');
    await vi.advanceTimersByTimeAsync(500);
    await r.settled();
    expect(due).toBe(0);
    expect(most).toBe(4);
  });
});
