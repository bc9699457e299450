// The sweatbox (contract §23) over HTTP on both databases: anyone holding a role books sessions on
// /staff/sweatbox (15 minutes to 8 hours, an end before the start on the next day, notes 0–255); an
// overlap on one position is refused by the database with a 409 naming the other session; the booker
// or the area's Moderator/Administrator changes or deletes, a Mentor of the area not someone else's;
// sessions are never pushed nor public; GET /api/sweatbox lists them; past ones go after 30 days.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildRole, buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';
import { ADMIN, buildStaffDivision, MENTOR, MOD, PLAIN } from '../../support/staff-division.js';
import { sweatboxCleanupWorker } from '../../../src/features/sweatbox/cleanup.worker.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const MENTOR_SE = 1000020;

describe('the sweatbox', () => {
  let ctx: TestContext;
  const session: Record<number, SignedIn> = {};
  const get = (path: string, cid: number) => ctx.app.inject({ method: 'GET', url: path, headers: { cookie: session[cid]!.cookie } });
  const post = async (path: string, fields: Record<string, string>, cid: number) =>
    postForm(ctx.app, path, { _csrf: csrfOf((await get('/staff', cid)).body), ...fields }, session[cid]!.cookie);
  const rows = () => ctx.services.db.kysely.selectFrom('sweatbox_sessions').selectAll().orderBy('id').execute();
  const book = (cid: number, f: Partial<Record<'position' | 'date' | 'start' | 'end' | 'notes', string>>) =>
    post('/staff/sweatbox', { position: 'EKCH_TWR', date: '2026-11-21', start: '18:00', end: '20:00', notes: '', ...f }, cid);

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: SIGN_IN_ENV });
    const division = buildStaffDivision({
      users: [buildUser({ id: MENTOR_SE, first_name: 'Sara', last_name: 'Svensson', rating: 'S3' })],
      roles: [buildRole({ user_id: MENTOR_SE, area: 'Sweden', role: 'Mentor' })],
    });
    await ctx.load(division);
    for (const u of division.users.filter((u) => [ADMIN, MOD, MENTOR, PLAIN, MENTOR_SE].includes(u.id)))
      session[u.id] = await signIn(ctx.app, ctx.services, u);
  });
  afterAll(() => ctx.close());

  it('is for anyone holding a role; checks the fields beside them; refuses an overlap with 409 naming the other', async () => {
    expect((await get('/staff/sweatbox', PLAIN)).statusCode).toBe(403);
    expect((await book(PLAIN, {})).statusCode).toBe(403);
    const page = await get('/staff/sweatbox', MENTOR);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<option value="ESSA_TWR"');

    for (const [fields, field, message] of [
      [{ end: '18:10' }, 'end', 'A session lasts from 15 minutes to 8 hours'],
      [{ end: '02:01' }, 'end', 'A session lasts from 15 minutes to 8 hours'],
      [{ start: '25:00' }, 'start', 'Give the start as HH:MM (UTC).'],
      [{ date: '2026-02-30' }, 'date', 'Give the day as YYYY-MM-DD.'],
      [{ position: 'XXXX_TWR' }, 'position', 'XXXX_TWR is not a position of the division.'],
      [{ notes: 'n'.repeat(256) }, 'notes', 'The notes may be at most 255 characters.'],
    ] as const) {
      const res = await book(MENTOR, fields);
      expect(res.statusCode, field).toBe(422);
      expect(res.body).toContain(`id="session-new-${field}-error">${message}`);
    }
    expect(await rows()).toEqual([]);

    // Across midnight: 22:00 to 02:00 is four hours, ending on the next day; 15 minutes and 8 hours are allowed.
    expect((await book(MENTOR, { start: '22:00', end: '02:00', notes: 'Radar vectors' })).statusCode).toBe(303);
    expect((await book(MOD, { position: 'EKCH_APP', start: '10:00', end: '10:15' })).statusCode).toBe(303);
    expect((await book(MENTOR_SE, { position: 'ESSA_TWR', start: '08:00', end: '16:00' })).statusCode).toBe(303);
    const [night] = await rows();
    expect(night).toMatchObject({
      user_id: MENTOR,
      time_start: Date.UTC(2026, 10, 21, 22),
      time_end: Date.UTC(2026, 10, 22, 2),
      notes: 'Radar vectors',
    });

    const clash = await book(MOD, { start: '01:00', end: '03:00', date: '2026-11-22' });
    expect(clash.statusCode).toBe(409);
    expect(clash.body).toContain(
      `EKCH_TWR is already booked in the sweatbox from 2026-11-21 22:00 to 2026-11-22 02:00 UTC by Mette Mikkelsen (${MENTOR}) (session ${night!.id}).`,
    );
    // Adjacent is not an overlap.
    expect((await book(MOD, { date: '2026-11-22', start: '02:00', end: '03:00' })).statusCode).toBe(303);
    expect((await rows()).length).toBe(4);
    const list = (await get('/staff/sweatbox', MENTOR)).body;
    expect(list).toContain('2026-11-21 22:00–2026-11-22 02:00 UTC');
    expect(list).toContain(`Booked by Mette Mikkelsen (${MENTOR})`);
  });

  it('lets the booker and the area’s Moderator change or delete, not another Mentor; audited', async () => {
    const [night, app, essa, later] = await rows();
    // Only usable actions show: the Mentor edits their own session only.
    const mentorList = (await get('/staff/sweatbox', MENTOR)).body;
    expect(mentorList).toContain(`href="/staff/sweatbox/${night!.id}"`);
    expect(mentorList).not.toContain(`href="/staff/sweatbox/${app!.id}"`);
    expect((await get(`/staff/sweatbox/${app!.id}`, MENTOR)).statusCode).toBe(403);
    expect((await post(`/staff/sweatbox/${app!.id}/delete`, {}, MENTOR)).statusCode).toBe(403);
    // The Danish Moderator may not touch Sweden's session; the division's Administrator may.
    expect((await post(`/staff/sweatbox/${essa!.id}/delete`, {}, MOD)).statusCode).toBe(403);
    const moved = { position: 'EKCH_TWR', date: '2026-11-23', start: '09:00', end: '10:00', notes: 'moved' };
    expect((await post(`/staff/sweatbox/${night!.id}`, moved, MOD)).statusCode).toBe(303);
    expect((await post(`/staff/sweatbox/${later!.id}`, { ...moved, start: '09:30' }, MOD)).statusCode).toBe(409);
    expect((await post(`/staff/sweatbox/${app!.id}/delete`, {}, MOD)).statusCode).toBe(303);
    expect((await post(`/staff/sweatbox/${essa!.id}/delete`, {}, ADMIN)).statusCode).toBe(303);
    expect((await rows()).map((r) => r.id)).toEqual([night!.id, later!.id]);
    expect((await rows())[0]).toMatchObject({ time_start: Date.UTC(2026, 10, 23, 9), notes: 'moved' });
    const audit = await ctx.services.audit.read({ target: `sweatbox_session:${night!.id}` });
    expect(audit.map((a: { action: string }) => a.action).sort()).toEqual(['sweatbox_session.created', 'sweatbox_session.updated']);
  });

  it('is never pushed nor public, is listed by GET /api/sweatbox, and is removed 30 days after its end', async () => {
    const [night, later] = await rows();
    expect(await ctx.services.db.kysely.selectFrom('events').selectAll().execute()).toEqual([]);
    expect(await ctx.services.db.kysely.selectFrom('network_pushes').selectAll().execute()).toEqual([]);
    expect((await ctx.request({ method: 'GET', url: '/' })).body).not.toContain('EKCH_TWR');
    expect((await ctx.request({ method: 'GET', url: '/calendar/bookings.ics' })).body).not.toContain('EKCH_TWR');
    const read = await ctx.key('read');
    expect((await ctx.request({ method: 'GET', url: '/api/bookings', token: read })).json()).toEqual([]);

    const res = await ctx.request({ method: 'GET', url: '/api/sweatbox?from=2026-11-22&to=2026-11-23', token: read });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: [
        {
          id: later!.id,
          callsign: 'EKCH_TWR',
          time_start: '2026-11-22 02:00:00',
          time_end: '2026-11-22 03:00:00',
          notes: '',
          user_id: MOD,
        },
        {
          id: night!.id,
          callsign: 'EKCH_TWR',
          time_start: '2026-11-23 09:00:00',
          time_end: '2026-11-23 10:00:00',
          notes: 'moved',
          user_id: MENTOR,
        },
      ],
    });
    expect((await ctx.request({ method: 'GET', url: '/api/sweatbox?from=yesterday', token: read })).statusCode).toBe(422);
    expect((await ctx.request({ method: 'GET', url: '/api/sweatbox' })).statusCode).toBe(401);

    const job = sweatboxCleanupWorker(ctx.services);
    const run = (now: number) =>
      job.run({ now: () => now, signal: new AbortController().signal, log: { info() {}, warn() {}, error() {} }, lease: null, took() {} });
    await run(Date.UTC(2026, 11, 23, 9, 59));
    expect((await rows()).length).toBe(1);
    await run(Date.UTC(2026, 11, 23, 10, 1));
    expect(await rows()).toEqual([]);
  });
});
