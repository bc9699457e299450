// Continued interest (contract §18) on fake time, with two instances on one database: a training
// in status 0 or 1 asks its student after 30 days (once, one mail), is kept when confirmed, and is
// closed by Sector (-4) with the reason when not confirmed within 14 days — each exactly once.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { type Db, openDatabase } from '../../../src/core/db/connection.js';
import { migrateToLatest } from '../../../src/core/db/migrate.js';
import { createServices, type ComposedServices } from '../../../src/app/services.js';
import { Workers } from '../../../src/core/workers/workers.js';
import { freshDatabaseUrl } from '../../support/context.js';
import { ADA, BO, buildDivision, buildUser } from '../../support/factories.js';
import { trainingInterestWorker } from '../../../src/features/trainings/interest.worker.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 0, 1, 12);
const ENV = { LOG_LEVEL: 'silent', DATA_FEED_URL: 'off', SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'Sector <sector@example.org>' };

describe('continued interest, on fake time, across two instances', () => {
  const dbs: Db[] = [];
  const runners: Workers[] = [];
  let a: ComposedServices;
  let b: ComposedServices;

  beforeEach(async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(T0);
    const url = freshDatabaseUrl();
    const config = loadConfig({ DATABASE_URL: url, ...ENV });
    for (let i = 0; i < 2; i++) dbs.push(openDatabase(url));
    await migrateToLatest(dbs[0]!);
    a = createServices(config, dbs[0]!, () => Date.now());
    b = createServices(config, dbs[1]!, () => Date.now());
    await a.imports.run(
      buildDivision({
        users: [buildUser({ email: 'ada@example.org' }), buildUser({ id: BO, first_name: 'Bo', rating: 'S2', email: 'bo@example.org' })],
      }),
    );
    // Only the interest job: every other worker would need the network or a mail server.
    for (const s of [a, b]) {
      const r = new Workers({ writer: s.writer, clock: () => Date.now(), workers: [trainingInterestWorker(s)] });
      runners.push(r);
      r.start();
    }
  });

  afterEach(async () => {
    for (const r of runners.splice(0)) await r.stop().catch(() => {});
    vi.useRealTimers();
    for (const db of dbs.splice(0)) await db.close();
  });

  /** Jumps the clock to `at` and lets the next scheduled runs of both instances happen. */
  const jumpTo = async (at: number) => {
    await Promise.all(runners.map((r) => r.settled()));
    vi.setSystemTime(at);
    // A minute at a time, each step's runs finished before the next (PostgreSQL responds in real time).
    for (let minute = 0; minute < 11; minute++) {
      await vi.advanceTimersByTimeAsync(60_000);
      await Promise.all(runners.map((r) => r.settled()));
    }
  };
  const state = (id: number) =>
    a.db.kysely
      .selectFrom('trainings')
      .select(['status', 'closed_reason', 'interest_deadline'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const timeline = async (id: number) =>
    (await a.db.kysely.selectFrom('training_timeline').select('action').where('training_id', '=', id).orderBy('id').execute()).map(
      (e) => e.action,
    );
  const mails = async () =>
    (await a.db.kysely.selectFrom('mail_outbox').select(['to_address', 'subject', 'text_body']).orderBy('id').execute()).filter(
      (m) => !m.subject.endsWith('Your training request'),
    );

  it('asks once after 30 days, closes with -4 after 14 more unconfirmed; a confirmed one stays open', async () => {
    const key = { kind: 'cli' } as const;
    const ada = await a.trainings.create({ user_id: ADA, area: 'Denmark', ratings: ['S2'] }, key);
    const bo = await a.trainings.create({ user_id: BO, area: 'Denmark', ratings: ['S3'], status: 1 }, key);

    await jumpTo(T0 + 29 * DAY);
    expect((await state(ada.id)).interest_deadline).toBeNull();
    expect(await mails()).toEqual([]);

    await jumpTo(T0 + 30 * DAY);
    for (const id of [ada.id, bo.id]) {
      expect((await state(id)).interest_deadline).toBeGreaterThan(T0 + 30 * DAY + 13 * DAY);
      expect(await timeline(id)).toEqual(['created', 'interest_requested']);
    }
    const asked = await mails();
    expect(asked.map((m) => m.to_address).sort()).toEqual(['ada@example.org', 'bo@example.org']);
    expect(asked[0]!.subject).toBe('Sector: Please confirm you still want your training');
    expect(asked[0]!.text_body).toContain('/my/training');

    // Bo confirms on his page; Ada does not.
    await b.applications.confirmInterest(BO, { kind: 'member', cid: BO, name: 'Bo Lind' });
    await jumpTo(T0 + 44 * DAY + 60_000);
    expect(await state(ada.id)).toEqual({ status: -4, closed_reason: 'Continued interest was not confirmed', interest_deadline: null });
    expect(await state(bo.id)).toMatchObject({ status: 1, interest_deadline: null });
    expect(await timeline(ada.id)).toEqual(['created', 'interest_requested', 'status']);
    const closed = await a.db.kysely.selectFrom('events').select('body').where('type', '=', 'training.closed').execute();
    expect(closed.map((e) => JSON.parse(e.body).data.training.id)).toEqual([ada.id]);
    const audit = await a.audit.read({ target: `training:${ada.id}` });
    expect(audit.find((e) => e.action === 'training.closed')).toMatchObject({ actor: 'system' });
    expect((await mails()).map((m) => m.subject)).toEqual([
      'Sector: Please confirm you still want your training',
      'Sector: Please confirm you still want your training',
      'Sector: Your training has a new status',
    ]);

    // Bo is asked again 30 days after his confirmation, not before.
    await jumpTo(T0 + 59 * DAY);
    expect((await state(bo.id)).interest_deadline).toBeNull();
    await jumpTo(T0 + 61 * DAY);
    expect(await timeline(bo.id)).toEqual(['created', 'interest_requested', 'interest_confirmed', 'interest_requested']);
  });

  it('never closes a training whose student confirmed, nor confirms a closed one, when the job and a confirmation race', async () => {
    const student = { kind: 'member', cid: ADA, name: 'Ada Lind' } as const;
    const job = trainingInterestWorker(a);
    // One run of the job, as the runner starts it (the lease is the runner's, not under test here).
    const quiet = { info() {}, warn() {}, error() {} };
    const runJob = () => job.run({ now: () => Date.now(), signal: new AbortController().signal, log: quiet, lease: null, took() {} });
    for (let round = 1; round <= 10; round++) {
      vi.setSystemTime(T0 + round * 60_000);
      const open = await b.applications.mine(ADA);
      const id =
        open && open.training.status >= 0
          ? open.training.id
          : (await a.trainings.create({ user_id: ADA, area: 'Denmark', ratings: ['S2'] }, { kind: 'cli' })).id;
      // Asked 14 days ago, deadline just passed.
      await a.db.kysely
        .updateTable('trainings')
        .set({ interest_deadline: Date.now() - 1 })
        .where('id', '=', id)
        .execute();
      const [, confirmed] = await Promise.allSettled([runJob(), b.applications.confirmInterest(ADA, student)]);
      const after = await state(id);
      const events = await timeline(id);
      // Either the confirmation came first and the training stays open, or the job did and it is refused.
      expect({ round, confirmed: confirmed.status, open: after.status >= 0 }).toEqual({
        round,
        confirmed: after.status >= 0 ? 'fulfilled' : 'rejected',
        open: after.status >= 0,
      });
      // A closed training's timeline ends with its closing: no confirmation was recorded after it.
      if (after.status < 0) expect(events.at(-1)).toBe('status');
    }
  });
});
