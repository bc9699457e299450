// npx sector user:erase (contract §24) as a process on both databases: without --yes and a terminal
// it changes nothing; pseudonymising leaves the person's name, address and settings in no table
// (stored events, mail and the audit log included), closes their open training, revokes their
// roles, ends their sessions and cancels their upcoming booking; roster:sync and the data feed do not
// bring the name back, signing in again does; --delete removes their rows but the audit log's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { member, startCoreApiStandIn, type CoreApiStandIn } from '../../support/core-api-stand-in.js';
import { pollFeed, startDataFeedStandIn, type DataFeedStandIn } from '../../support/data-feed-stand-in.js';
import { ALL_TABLES, readDatabase, tableRows } from '../../support/db-state.js';
import { buildBooking, buildDivision, buildEndorsement, buildPosition, buildRole, buildUser } from '../../support/factories.js';
import { SIGN_IN_ENV, signIn } from '../../support/members.js';
import { runCli, runCliAsync } from '../../support/processes.js';

// The CLI process runs on the real clock: the bookings are placed around it.
const NOW = Math.floor(Date.now() / 60_000) * 60_000;
const DAY = 86_400_000;
const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const ddmmyyyy = (ms: number) => new Date(ms).toISOString().slice(0, 10).split('-').reverse().join('/');
const iso = (ms: number) => new Date(ms).toISOString();
const ZED = 1000071;
const BO = 1000072;
const zelda = buildUser({ id: ZED, first_name: 'Zelda', last_name: 'Quixote', rating: 'S2', email: 'zelda@example.org' });
const bo = buildUser({ id: BO, first_name: 'Bodil', last_name: 'Berg', rating: 'S3', email: 'bodil@example.org' });
const PERSONAL = ['Zelda', 'Quixote', 'zelda@example.org'];
const SLOW_MS = 180_000;

describe('npx sector user:erase', () => {
  let ctx: TestContext;
  let env: Record<string, string>;
  let api: CoreApiStandIn;
  let feed: DataFeedStandIn;
  const everything = async () => JSON.stringify(await tableRows(ctx.databaseUrl, ALL_TABLES));
  const user = (cid: number) =>
    readDatabase(ctx.databaseUrl, (db) => db.selectFrom('users').selectAll().where('id', '=', cid).executeTakeFirstOrThrow());
  const poll = (at: number) => {
    feed.set(iso(at), [{ cid: ZED, callsign: 'EKCH_TWR', logon_time: iso(at - 600_000), name: 'Zelda Quixote' }]);
    return pollFeed(ctx.services, feed);
  };

  beforeAll(async () => {
    api = await startCoreApiStandIn();
    feed = await startDataFeedStandIn();
    ctx = await createTestContext({
      now: NOW,
      env: { ...SIGN_IN_ENV, DIVISION: 'EUD', SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'Sector <s@example.org>' },
    });
    env = { DATABASE_URL: ctx.databaseUrl, DIVISION: 'EUD', CORE_API_URL: api.url, CORE_API_KEY: api.key, CORE_API_TIMEOUT_MS: '2000' };
    await ctx.load(
      buildDivision({
        areas: ['Denmark'],
        users: [zelda, bo],
        positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_TWR')],
        roles: [buildRole({ user_id: ZED, role: 'Mentor' }), buildRole({ user_id: BO, role: 'Mentor' })],
        endorsements: [buildEndorsement({ user_id: ZED, type: 'visiting', rating: 'S2', areas: ['Denmark'] })],
        bookings: [
          buildBooking({
            user_id: ZED,
            callsign: 'EKCH_DEL',
            time_start: stamp(NOW - 30 * DAY),
            time_end: stamp(NOW - 30 * DAY + 7_200_000),
          }),
          buildBooking({
            user_id: BO,
            callsign: 'EKCH_DEL',
            time_start: stamp(NOW + 30 * DAY),
            time_end: stamp(NOW + 30 * DAY + 7_200_000),
          }),
        ],
      }),
    );
    // What a member leaves behind in a year: a booking made through the API (its events carry the
    // name), an open training with its mail, feedback, settings, a calendar feed, a session, sign-ins.
    const booked = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: await ctx.key('edit'),
      payload: { cid: ZED, date: ddmmyyyy(NOW + 31 * DAY), start_at: '14:00', end_at: '16:00', position: 'EKCH_DEL' },
    });
    expect(booked.statusCode).toBe(201);
    const cli = { kind: 'cli' } as const;
    await ctx.services.trainings.create(
      { user_id: ZED, area: 'Denmark', ratings: ['S3'], motivation: 'I want to control S3. '.repeat(4) },
      cli,
    );
    const as = { kind: 'member', cid: ZED, name: 'Zelda Quixote' } as const;
    await ctx.services.feedback.send({ controller: String(BO), position: 'EKCH_DEL', text: 'Bodil was a great help.' }, as);
    await ctx.services.settings.save(as, 'dark', new Set(['activity']));
    await ctx.services.memberBookings.renewCalendar({ cid: ZED, name: 'Zelda Quixote' });
    await signIn(ctx.app, ctx.services, zelda);
    await signIn(ctx.app, ctx.services, bo);
    await poll(NOW - 60_000);
  }, SLOW_MS);
  afterAll(async () => {
    await ctx.close();
    await api.close();
    await feed.close();
  });

  it('refuses without --yes and a terminal, or for an unknown person, changing nothing', { timeout: SLOW_MS }, async () => {
    const before = await everything();
    for (const text of PERSONAL) expect(before).toContain(text);
    const unasked = runCli(['user:erase', String(ZED)], env);
    expect(unasked.code).not.toBe(0);
    expect(unasked.stderr.trim()).toBe(`sector: no terminal to ask on: pass --yes to pseudonymise user ${ZED}; nothing was changed.`);
    const unknown = runCli(['user:erase', '1999999', '--yes'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr.trim()).toBe('sector: There is no user 1999999; nothing was changed.');
    expect(runCli(['user:erase', 'zelda', '--yes'], env).code).not.toBe(0);
    expect(await everything()).toBe(before);
  });

  it(
    'pseudonymises: the name, address and settings are in no table; training closed, roles revoked, sessions ended',
    { timeout: SLOW_MS },
    async () => {
      const done = runCli(['user:erase', String(ZED), '--yes', '--json'], env);
      expect(done.stderr).toBe('');
      expect(done.code).toBe(0);
      expect(JSON.parse(done.stdout)).toMatchObject({
        cid: ZED,
        mode: 'pseudonymise',
        trainings_closed: 1,
        roles_revoked: 1,
        bookings_cancelled: 1,
      });

      const all = await everything();
      for (const text of PERSONAL) expect(all).not.toContain(text);
      // Bodil's are untouched.
      for (const text of ['Bodil', 'bodil@example.org']) expect(all).toContain(text);

      expect(await user(ZED)).toMatchObject({ first_name: 'Anonymous', last_name: null, email: null, erased_at: expect.any(Number) });
      await readDatabase(ctx.databaseUrl, async (db) => {
        const trainings = await db.selectFrom('trainings').select(['status', 'closed_reason']).where('user_id', '=', ZED).execute();
        expect(trainings).toEqual([{ status: -4, closed_reason: 'Closed due to a data deletion request' }]);
        expect(await db.selectFrom('roles').selectAll().where('user_id', '=', ZED).execute()).toEqual([]);
        for (const table of ['sessions', 'member_settings', 'mail_choices', 'member_calendars'] as const)
          expect(await db.selectFrom(table).selectAll().where('user_id', '=', ZED).execute(), table).toEqual([]);
        // The past booking stays as history under the pseudonym; the upcoming one is cancelled.
        const bookings = await db
          .selectFrom('bookings')
          .select(['time_start', 'deleted'])
          .where('user_id', '=', ZED)
          .orderBy('time_start')
          .execute();
        expect(bookings.map((b) => b.deleted)).toEqual([0, 1]);
        // The erase is audited, without the erased values; the role and training changes as any others.
        const audit = await db
          .selectFrom('audit_log')
          .select(['actor', 'action', 'before', 'after'])
          .where('target', '=', `user:${ZED}`)
          .execute();
        expect(audit).toContainEqual({ actor: 'cli', action: 'user.erased', before: null, after: expect.any(String) });
        expect(audit.map((a) => a.action)).toContain('role.revoked');
        const events = await db.selectFrom('events').select('type').execute();
        expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['role.revoked', 'training.closed', 'booking.deleted']));
      });
      // Feedback Zelda sent stays for staff, under the pseudonym.
      expect((await ctx.request({ method: 'GET', url: '/api/feedback', token: await ctx.key('read') })).json()).toMatchObject({
        data: [{ controller: BO, text: 'Bodil was a great help.' }],
      });
    },
  );

  it('roster:sync and the data feed leave the pseudonym; signing in again lifts the mark', { timeout: SLOW_MS }, async () => {
    api.members.set(ZED, { ...member(ZED), name_first: 'Zelda', name_last: 'Quixote', email: 'zelda@example.org', rating: 3 });
    api.members.set(BO, member(BO, 'EUD', 'SCA', 4));
    const synced = await runCliAsync(['roster:sync'], env);
    expect(synced.stderr).toBe('');
    expect(synced.code).toBe(0);
    ctx.setNow(NOW + 60_000);
    await poll(NOW + 60_000);
    // The rating follows the network; nothing personal comes back, in users or anywhere else.
    expect(await user(ZED)).toMatchObject({ first_name: 'Anonymous', last_name: null, email: null, rating: 3 });
    const all = await everything();
    for (const text of PERSONAL) expect(all).not.toContain(text);
    expect(await user(BO)).toMatchObject({ first_name: `First${BO}` });

    await signIn(ctx.app, ctx.services, zelda);
    expect(await user(ZED)).toMatchObject({ first_name: 'Zelda', last_name: 'Quixote', email: 'zelda@example.org', erased_at: null });
  });

  it('--delete removes their rows but the audit log, which keeps the cid without a name', { timeout: SLOW_MS }, async () => {
    const done = runCli(['user:erase', String(ZED), '--delete', '--yes'], env);
    expect(done.code).toBe(0);
    expect(done.stderr).toContain(`Deleted the data of user ${ZED}: 0 open trainings closed, 0 roles revoked`);
    const all = await everything();
    for (const text of PERSONAL) expect(all).not.toContain(text);
    await readDatabase(ctx.databaseUrl, async (db) => {
      for (const [table, column] of [
        ['bookings', 'user_id'],
        ['trainings', 'user_id'],
        ['endorsements', 'user_id'],
        ['roles', 'user_id'],
        ['feedback', 'sender_id'],
        ['sessions', 'user_id'],
        ['atc_sessions', 'cid'],
      ] as const)
        expect(await db.selectFrom(table).select(column).where(column, '=', ZED).execute(), table).toEqual([]);
      const audit = await db.selectFrom('audit_log').select(['actor_name', 'action']).where('target', '=', `user:${ZED}`).execute();
      expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(['member.sign_in', 'user.erased', 'user.deleted']));
      expect(audit.every((a) => a.actor_name === null)).toBe(true);
    });
    expect(await user(ZED)).toMatchObject({ first_name: 'Anonymous', email: null });
  });
});
