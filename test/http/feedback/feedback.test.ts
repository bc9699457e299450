// Feedback (contract §23) over HTTP on both databases: any signed-in member sends it (controller and
// position optional, 1–4000 characters, the 11th within 24 hours a 429 page); /staff/feedback shows
// it to the Moderators and Administrators of the position's area (any of them without a position),
// not to Mentors, nor to another area's Moderator; only that page shows the sender; corrections are
// audited; FEEDBACK_FORWARD_TO gets a copy; feedback.created carries no sender; GET /api/feedback.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, buildRole, buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';
import { ADMIN, buildStaffDivision, MENTOR, MOD, PLAIN } from '../../support/staff-division.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const MOD_SE = 1000021;

describe('feedback', () => {
  let ctx: TestContext;
  const session: Record<number, SignedIn> = {};
  const get = (path: string, cid: number) => ctx.app.inject({ method: 'GET', url: path, headers: { cookie: session[cid]!.cookie } });
  const post = async (path: string, fields: Record<string, string>, cid: number, page = '/my') =>
    postForm(ctx.app, path, { _csrf: csrfOf((await get(page, cid)).body), ...fields }, session[cid]!.cookie);
  const db = () => ctx.services.db.kysely;
  const rows = () => db().selectFrom('feedback').selectAll().orderBy('id').execute();
  const send = (f: Record<string, string>, cid = PLAIN) =>
    post('/feedback', { controller: '', position: '', text: 'Great service', ...f }, cid);

  beforeAll(async () => {
    ctx = await createTestContext({
      now: NOW,
      env: {
        ...SIGN_IN_ENV,
        FEEDBACK_FORWARD_TO: 'staff@example.org',
        SMTP_URL: 'smtp://127.0.0.1:9',
        MAIL_FROM: 'Sector <s@example.org>',
      },
    });
    const division = buildStaffDivision({
      users: [buildUser({ id: MOD_SE, first_name: 'Sune', last_name: 'Svensk', rating: 'C1' })],
      roles: [buildRole({ user_id: MOD_SE, area: 'Sweden', role: 'Moderator' })],
    });
    await ctx.load(division);
    for (const u of division.users.filter((u) => [ADMIN, MOD, MENTOR, PLAIN, MOD_SE, ADA].includes(u.id)))
      session[u.id] = await signIn(ctx.app, ctx.services, u);
  });
  afterAll(() => ctx.close());

  it('takes feedback from any member, checking each field beside it, and refuses the 11th in 24 hours (429)', async () => {
    for (const [fields, field, message] of [
      [{ text: '' }, 'text', 'The text must be 1 to 4000 characters.'],
      [{ text: 't'.repeat(4001) }, 'text', 'The text must be 1 to 4000 characters.'],
      [{ controller: 'abc' }, 'controller', 'Give the controller&#39;s CID (a number), or leave it empty.'],
      [{ position: 'XXXX_TWR' }, 'position', 'XXXX_TWR is not a position of the division.'],
    ] as const) {
      const res = await send(fields);
      expect(res.statusCode, field).toBe(422);
      expect(res.body).toContain(`id="feedback-${field}-error">${message}`);
    }
    expect(await rows()).toEqual([]);
    expect((await send({ controller: String(ADA), position: 'ekch_twr', text: 'Calm and clear on EKCH' })).statusCode).toBe(303);
    expect((await send({ position: 'ESSA_TWR', text: 'Sweden' })).statusCode).toBe(303);
    expect((await send({ controller: '1999999', text: 'No position, not one of ours' })).statusCode).toBe(303);
    for (let i = 0; i < 7; i++) expect((await send({ text: `More ${i}` })).statusCode).toBe(303);
    const eleventh = await send({ text: 'One too many' });
    expect(eleventh.statusCode).toBe(429);
    expect(eleventh.body).toContain('You have sent 10 feedback in the last 24 hours');
    expect((await rows()).length).toBe(10);
    ctx.setNow(NOW + 86_400_001);
    expect((await send({ text: 'Next day' })).statusCode).toBe(303);
    ctx.setNow(NOW);
  });

  it('shows feedback by area and role, the sender only on the staff page, never to the controller', async () => {
    const [ekch, essa, none] = await rows();
    expect((await get('/staff/feedback', MENTOR)).statusCode).toBe(403);
    expect((await get('/staff', MENTOR)).body).not.toContain('href="/staff/feedback"');
    const mod = (await get('/staff/feedback', MOD)).body;
    expect(mod).toContain(`Feedback ${ekch!.id} `);
    expect(mod).toContain(`Feedback ${none!.id} `);
    expect(mod).not.toContain(`Feedback ${essa!.id} `);
    expect(mod).toContain(`From Per Poulsen (${PLAIN})`);
    expect(mod).toContain(`About Ada Lind (${ADA})`);
    const se = (await get('/staff/feedback', MOD_SE)).body;
    expect(se).toContain(`Feedback ${essa!.id} `);
    expect(se).not.toContain(`Feedback ${ekch!.id} `);
    const admin = (await get('/staff/feedback', ADMIN)).body;
    for (const f of [ekch, essa, none]) expect(admin).toContain(`Feedback ${f!.id} `);
    // The controller's own pages never show it; the API and the event carry no sender.
    for (const page of ['/my', '/feedback']) expect((await get(page, ADA)).body).not.toContain('Calm and clear on EKCH');
    const read = await ctx.key('read');
    const api = (await ctx.request({ method: 'GET', url: `/api/feedback?area=Denmark&controller=${ADA}`, token: read })).json();
    expect(api).toEqual({
      data: [
        {
          id: ekch!.id,
          controller: ADA,
          position: 'EKCH_TWR',
          area: 'Denmark',
          text: 'Calm and clear on EKCH',
          actioned: false,
          created_at: '2026-11-20T12:00:00.000000Z',
        },
      ],
    });
    expect(JSON.stringify((await ctx.request({ method: 'GET', url: '/api/feedback', token: read })).json())).not.toContain(String(PLAIN));
    const events = await db().selectFrom('events').select('body').where('type', '=', 'feedback.created').orderBy('seq').execute();
    expect(events.length).toBe(11);
    expect(JSON.parse(events[0]!.body).data.feedback).toEqual({
      id: ekch!.id,
      controller: ADA,
      position: 'EKCH_TWR',
      area: 'Denmark',
      text: 'Calm and clear on EKCH',
      created_at: '2026-11-20T12:00:00.000000Z',
    });
    expect(events.map((e) => e.body).join()).not.toContain(String(PLAIN));
    const mail = await db().selectFrom('mail_outbox').selectAll().orderBy('id').execute();
    expect(mail.length).toBe(11);
    expect(mail[0]).toMatchObject({ to_address: 'staff@example.org' });
    expect(mail[0]!.text_body).toContain('Calm and clear on EKCH');
    expect(mail.map((m) => m.text_body + m.html_body).join()).not.toContain(String(PLAIN));
  });

  it('lets the area’s staff correct (audited), mark actioned and comment; others are refused', async () => {
    const [ekch, essa] = await rows();
    expect((await post(`/staff/feedback/${essa!.id}/actioned`, { actioned: '1' }, MOD, '/staff')).statusCode).toBe(403);
    expect((await post(`/staff/feedback/${ekch!.id}`, { controller: '', position: 'ESSA_TWR' }, MOD, '/staff')).statusCode).toBe(403);
    const bad = await post(`/staff/feedback/${ekch!.id}`, { controller: 'x', position: 'EKCH_APP' }, MOD, '/staff');
    expect(bad.statusCode).toBe(422);
    expect(
      (await post(`/staff/feedback/${ekch!.id}`, { controller: String(MENTOR), position: 'EKCH_APP' }, MOD, '/staff')).statusCode,
    ).toBe(303);
    expect((await post(`/staff/feedback/${ekch!.id}/actioned`, { actioned: '1' }, MOD, '/staff')).statusCode).toBe(303);
    expect((await post(`/staff/feedback/${ekch!.id}/comments`, { comment: 'Passed on the praise' }, MOD, '/staff')).statusCode).toBe(303);
    expect((await rows())[0]).toMatchObject({ controller: MENTOR, actioned: 1, text: 'Calm and clear on EKCH', sender_id: PLAIN });
    const page = (await get('/staff/feedback', MOD)).body;
    expect(page).toContain(`Mona Madsen (${MOD}), 2026-11-20 12:00 UTC: Passed on the praise`);
    const audit = await ctx.services.audit.read({ target: `feedback:${ekch!.id}` });
    const corrected = audit.find((a: { action: string }) => a.action === 'feedback.corrected');
    expect(corrected).toMatchObject({
      before: { controller: ADA, position: 'EKCH_TWR' },
      after: { controller: MENTOR, position: 'EKCH_APP' },
    });
    const read = await ctx.key('read');
    const api = (await ctx.request({ method: 'GET', url: `/api/feedback?controller=${MENTOR}`, token: read })).json();
    expect(api.data).toEqual([expect.objectContaining({ id: ekch!.id, position: 'EKCH_APP', actioned: true })]);
    expect(JSON.stringify(api)).not.toContain('Passed on the praise');
  });
});
