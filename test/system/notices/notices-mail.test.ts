// Notifications (contract §24) through a real SMTP server, on one database with two instances'
// services: endorsement mails once per (kind, endorsement) to the holder, named in words; a short
// solo warned at issue to the holder and their mentor; expiry and the solo warning from workers run
// on both instances, once; a kind turned off sends nothing, no address sends nothing and fails
// nothing; the inactive-online alert once per session over many polls, with its event; the activity
// warning once per lapse date and the lapsed mail, on fake time.
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { openDatabase, type Db } from '../../../src/core/db/connection.js';
import { createServices, type ComposedServices } from '../../../src/app/services.js';
import { endorsementExpiryWorker } from '../../../src/features/endorsements/expiry.worker.js';
import { soloWarningWorker } from '../../../src/features/endorsements/solo-warning.worker.js';
import { FeedPollService } from '../../../src/features/activity/feed.service.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildDivision, buildPosition, buildRole, buildUser } from '../../support/factories.js';
import { feedDocument } from '../../support/data-feed-stand-in.js';

const DAY = 86_400_000;
const T0 = Date.UTC(2026, 2, 1, 12);
const HOLDER = 1000071;
const MENTOR = 1000072;
const NOMAIL = 1000073;
const MOD = 1000074;
const VISITOR = 1000075;
const ACTIVE = 1000076;

describe('notification mails through a real SMTP server (contract §24)', () => {
  let ctx: TestContext;
  let other: ComposedServices;
  let otherDb: Db;
  let server: SMTPServer;
  let now = T0;
  const received: Array<{ to: string; mail: ParsedMail }> = [];
  const cli = { kind: 'cli' } as const;

  const workerCtx = () => ({ now: () => now, signal: new AbortController().signal, log: console, lease: null, took: () => {} });
  /** Both instances' senders work the one outbox until it is empty. */
  const deliver = async () => {
    for (let i = 0; i < 50; i++) if (!(await [ctx.services, other][i % 2]!.mail!.sendNext(workerCtx()))) break;
  };
  const waitFor = async (n: number) => {
    for (let i = 0; i < 200 && received.length < n; i++) await new Promise((r) => setTimeout(r, 25));
    await new Promise((r) => setTimeout(r, 100));
    return received;
  };
  const outbox = async () =>
    (await ctx.services.db.kysely.selectFrom('mail_outbox').select(['to_address', 'subject', 'text_body']).orderBy('id').execute()).map(
      (m) => ({ to: m.to_address, subject: m.subject, text: m.text_body }),
    );

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          void simpleParser(Buffer.concat(chunks).toString('utf8')).then((mail) => {
            received.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), mail });
            callback();
          });
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const env = {
      SMTP_URL: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
      MAIL_FROM: 'Sector <sector@example.org>',
      SITE_NAME: 'vACC Denmark',
      PUBLIC_URL: 'https://sector.example.org',
      ACTIVITY_HOURS: '1',
    };
    ctx = await createTestContext({ now: T0, env });
    otherDb = openDatabase(ctx.databaseUrl);
    other = createServices(
      loadConfig({ DATABASE_URL: ctx.databaseUrl, LOG_LEVEL: 'silent', DATA_FEED_URL: 'off', ...env }),
      otherDb,
      () => now,
    );
    await ctx.load(
      buildDivision({
        areas: ['Denmark'],
        users: [
          buildUser({ id: HOLDER, first_name: 'Hanne', last_name: 'Holder', rating: 'S1', email: 'hanne@example.org' }),
          buildUser({ id: MENTOR, first_name: 'Morten', last_name: 'Mentor', rating: 'C1', email: 'morten@example.org' }),
          buildUser({ id: NOMAIL, first_name: 'Nina', last_name: 'Nomail', rating: 'S1', email: null }),
          buildUser({ id: MOD, first_name: 'Mette', last_name: 'Moderator', rating: 'C1', email: 'mette@example.org' }),
          buildUser({ id: VISITOR, first_name: 'Viggo', last_name: 'Visitor', rating: 'S3', email: 'viggo@example.org' }),
          buildUser({
            id: ACTIVE,
            first_name: 'Aksel',
            last_name: 'Active',
            rating: 'S3',
            email: 'aksel@example.org',
            atc_active_areas: { Denmark: true },
          }),
        ],
        positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_DEL')],
        roles: [
          buildRole({ user_id: MENTOR, area: 'Denmark', role: 'Mentor' }),
          buildRole({ user_id: MOD, area: 'Denmark', role: 'Moderator' }),
        ],
      }),
    );
    for (const cid of [HOLDER, NOMAIL]) {
      const t = await ctx.services.trainings.create({ user_id: cid, area: 'Denmark', ratings: ['S2'], status: 2 }, cli);
      await ctx.services.trainings.update(t.id, { mentors: [MENTOR] }, cli);
    }
  }, 60_000);
  afterAll(async () => {
    await ctx.close();
    await otherDb.close();
    await new Promise<void>((r) => server.close(() => r()));
  });

  const setNow = (ms: number) => {
    now = ms;
    ctx.setNow(ms);
  };

  it('endorsement mails: once per (kind, endorsement), to the holder, named; a short solo warned at issue with the mentor', async () => {
    const before = (await outbox()).length;
    const solo = await ctx.services.endorsements.issue(
      HOLDER,
      { type: 'solo', rating: null, areas: [], positions: ['EKCH_TWR'], valid_from: T0, valid_to: T0 + 2 * DAY },
      cli,
    );
    await ctx.services.endorsements.setEnd(solo.id, T0 + DAY, cli);
    await ctx.services.endorsements.setEnd(solo.id, T0 + DAY / 2, cli);
    await ctx.services.endorsements.revoke(solo.id, cli);
    // No address: nothing written, nothing fails.
    await ctx.services.endorsements.issue(
      NOMAIL,
      { type: 'solo', rating: null, areas: [], positions: ['EKCH_TWR'], valid_from: T0, valid_to: T0 + DAY },
      cli,
    );
    const mails = (await outbox()).slice(before);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      ['hanne@example.org', 'vACC Denmark: You have a new endorsement'],
      ['hanne@example.org', 'vACC Denmark: Your solo endorsement ends soon'],
      ['morten@example.org', 'vACC Denmark: A solo endorsement of your student ends soon'],
      ['hanne@example.org', 'vACC Denmark: Your endorsement ends earlier'],
      ['hanne@example.org', 'vACC Denmark: Your endorsement was revoked'],
      // Nina has no address: nothing for her, nothing fails; her mentor is still warned.
      ['morten@example.org', 'vACC Denmark: A solo endorsement of your student ends soon'],
    ]);
    expect(mails[0]!.text).toContain('You have been issued a solo endorsement on EKCH_TWR');
    expect(mails[2]!.text).toContain(`The solo endorsement of Hanne Holder (${HOLDER}) on EKCH_TWR (Denmark) ends at`);
    for (const m of mails) {
      expect(m.text).toContain('You get this because mail about your endorsements is on in your settings.');
      expect(m.text).toContain('https://sector.example.org/my/settings');
      expect(m.text).toContain('— vACC Denmark');
    }
    // Through the real server: the first mails arrive as written.
    await deliver();
    const got = await waitFor(mails.length);
    expect(
      got.some((r) => r.to === 'morten@example.org' && r.mail.subject === 'vACC Denmark: A solo endorsement of your student ends soon'),
    ).toBe(true);
  });

  it('the solo warning and the expiry from workers on two instances: once each; a kind turned off sends nothing', async () => {
    const solo = await ctx.services.endorsements.issue(
      HOLDER,
      { type: 'solo', rating: null, areas: [], positions: ['EKCH_TWR'], valid_from: T0 + 60_000, valid_to: T0 + 10 * DAY },
      cli,
    );
    const before = (await outbox()).length;
    const runBoth = async () => {
      for (const s of [ctx.services, other]) {
        await soloWarningWorker(s).run(workerCtx());
        await endorsementExpiryWorker(s).run(workerCtx());
      }
    };
    await runBoth();
    expect((await outbox()).length).toBe(before);
    setNow(T0 + 8 * DAY);
    await runBoth();
    await runBoth();
    setNow(T0 + 11 * DAY);
    await runBoth();
    await runBoth();
    const mails = (await outbox()).slice(before);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      ['hanne@example.org', 'vACC Denmark: Your solo endorsement ends soon'],
      ['morten@example.org', 'vACC Denmark: A solo endorsement of your student ends soon'],
      ['hanne@example.org', 'vACC Denmark: Your endorsement has expired'],
    ]);
    expect(mails[2]!.text).toContain(`Your solo endorsement on EKCH_TWR expired at`);
    expect(solo.id).toBeGreaterThan(0);
    // Turned off: an issue sends nothing to Hanne.
    await ctx.services.settings.save({ kind: 'member', cid: HOLDER, name: 'Hanne Holder' }, 'device', new Set(['activity', 'training']));
    const off = (await outbox()).length;
    await ctx.services.endorsements.issue(
      HOLDER,
      { type: 'solo', rating: null, areas: [], positions: ['EKCH_TWR'], valid_from: now, valid_to: now + DAY },
      cli,
    );
    expect((await outbox()).slice(off).filter((m) => m.to === 'hanne@example.org')).toEqual([]);
    // Her mentor still gets the warning of the short solo.
    expect((await outbox()).slice(off).map((m) => m.to)).toEqual(['morten@example.org']);
  });

  it('the inactive-online alert: once per session over many polls, to the area Moderators, with its event; not for an active controller', async () => {
    const before = (await outbox()).length;
    const poll = (s: ComposedServices, at: number) =>
      new FeedPollService({
        ...s,
        feed: { url: 'http://127.0.0.1:9/', intervalS: 60 },
        site: { siteName: 'vACC Denmark', publicUrl: 'https://sector.example.org' },
      }).process(
        Buffer.from(
          JSON.stringify(
            feedDocument(new Date(at).toISOString(), [
              { cid: VISITOR, callsign: 'EKCH_TWR', logon_time: logon, name: 'Viggo Visitor' },
              { cid: ACTIVE, callsign: 'EKCH_DEL', logon_time: logon, name: 'Aksel Active' },
            ]),
          ),
        ),
      );
    const logon = new Date(now).toISOString();
    for (let i = 0; i < 4; i++) {
      setNow(now + 60_000);
      await poll(i % 2 === 0 ? ctx.services : other, now);
    }
    const mails = (await outbox()).slice(before);
    expect(mails.map((m) => [m.to, m.subject])).toEqual([
      ['mette@example.org', 'vACC Denmark: A controller not active in Denmark is online'],
    ]);
    expect(mails[0]!.text).toContain(`Viggo Visitor (${VISITOR}) is controlling EKCH_TWR since`);
    const events = await ctx.services.db.kysely
      .selectFrom('events')
      .select(['type', 'body'])
      .where('type', '=', 'activity.inactive_online')
      .execute();
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.body).data).toMatchObject({ cid: VISITOR, callsign: 'EKCH_TWR', area: 'Denmark' });
  });

  it('the activity warning once per lapse date within 30 days, and the lapsed mail', async () => {
    // Aksel's grace (given by the import at T0) ends 12 months later; 20 days before, he is warned once.
    const lapse = Date.UTC(2027, 2, 1, 12);
    const before = (await outbox()).length;
    setNow(lapse - 40 * DAY);
    await ctx.services.activity.warnLapsing();
    expect((await outbox()).length).toBe(before);
    setNow(lapse - 20 * DAY);
    await ctx.services.activity.warnLapsing();
    await other.activity.warnLapsing();
    setNow(lapse - 19 * DAY);
    await ctx.services.activity.warnLapsing();
    let mails = (await outbox()).slice(before).filter((m) => m.to === 'aksel@example.org');
    expect(mails.map((m) => m.subject)).toEqual(['vACC Denmark: Your ATC activity in Denmark lapses soon']);
    expect(mails[0]!.text).toContain('Your ATC activity in Denmark lapses on 2027-03-01');
    expect(mails[0]!.text).toMatch(/Control \d+(\.\d)? hours on Denmark’s positions by then/);
    setNow(lapse + DAY);
    await ctx.services.activity.recompute();
    await other.activity.recompute();
    mails = (await outbox()).slice(before).filter((m) => m.to === 'aksel@example.org');
    expect(mails.map((m) => m.subject)).toEqual([
      'vACC Denmark: Your ATC activity in Denmark lapses soon',
      'vACC Denmark: Your ATC activity in Denmark has lapsed',
    ]);
  });
});
