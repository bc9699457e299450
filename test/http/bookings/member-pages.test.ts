// Members' booking pages (contract §14): the form offers what who-may-book allows, a booking made
// on the page goes through the API's write path (it is listed by the API, has its event and is
// audited as the member), errors come back next to their fields, CSRF is required, and every
// who-may-book rule holds through HTTP with a persona each. In a browser: test/browser/bookings/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditTable } from '../../../src/features/audit/domain/index.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import {
  ADA,
  BO,
  buildBooking,
  buildEndorsement,
  buildPosition,
  buildRole,
  buildTraining,
  buildUser,
  type UserRecord,
} from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';

const NOW = Date.UTC(2030, 2, 10, 12, 0, 0);

const member = (id: number, first: string, rating: string, extra: Partial<UserRecord> = {}) =>
  buildUser({ id, first_name: first, last_name: 'Test', rating, division: 'EUD', ...extra });

// One persona per rule.
const USERS = {
  ada: member(ADA, 'Ada', 'C1', { atc_active_areas: { Denmark: true } }), // C1 member active in Denmark
  bo: member(BO, 'Bo', 'S2', { atc_active_areas: { Denmark: true } }), // S2 member active in Denmark
  idle: member(1000003, 'Idle', 'S2'), // member, active nowhere
  visitor: member(1000004, 'Vera', 'S2', { division: 'USA' }), // visiting endorsement for Denmark
  stranger: member(1000005, 'Stan', 'S2', { division: 'USA' }), // no endorsement
  trainee: member(1000006, 'Tia', 'S1'), // open training in Denmark for S3
  moderator: member(1000007, 'Mo', 'S1', { division: 'USA' }), // Moderator of Denmark
};

const DIVISION = {
  areas: ['Denmark', 'Sweden'],
  users: Object.values(USERS),
  positions: [
    buildPosition('EKCH_DEL'),
    buildPosition('EKCH_TWR'),
    buildPosition('EKCH_APP'),
    buildPosition('EKDK_CTR'),
    buildPosition('ESSA_TWR'),
  ],
  endorsements: [buildEndorsement({ user_id: USERS.visitor.id, type: 'visiting', rating: 'S2', areas: ['Denmark'] })],
  trainings: [buildTraining({ user_id: USERS.trainee.id, area: 'Denmark', status: 2, ratings: ['S3'] })],
  roles: [buildRole({ user_id: USERS.moderator.id, area: 'Denmark', role: 'Moderator' })],
  bookings: [
    buildBooking({ id: 50, user_id: BO, callsign: 'EKCH_TWR', time_start: '2030-03-12 10:00:00', time_end: '2030-03-12 12:00:00' }),
  ],
};

/** The options of a select on a page: [value, text]. */
function options(page: string, id: string): string[] {
  const select = new RegExp(`<select id="${id}"[^>]*>(.*?)</select>`, 's').exec(page);
  if (!select) return [];
  return [...select[1]!.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]!);
}

describe('members booking pages', () => {
  let ctx: TestContext;
  const session: Partial<Record<keyof typeof USERS, SignedIn>> = {};
  const get = (url: string, who: keyof typeof USERS | null) =>
    ctx.app.inject({ method: 'GET', url, headers: who ? { cookie: session[who]!.cookie } : {} });

  /** Posts a form as the member, with a CSRF token from their booking form. */
  async function post(who: keyof typeof USERS, url: string, fields: Record<string, string>) {
    const token = csrfOf((await get('/bookings/new', who)).body);
    return postForm(ctx.app, url, { _csrf: token, ...fields }, session[who]!.cookie);
  }
  const book = (who: keyof typeof USERS, fields: Partial<Record<'position' | 'date' | 'start_at' | 'end_at' | 'tag', string>>) =>
    post(who, '/bookings', { position: 'EKCH_DEL', date: '2030-03-12', start_at: '14:00', end_at: '16:00', tag: '', ...fields });

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: { ...SIGN_IN_ENV, DIVISION: 'EUD', SITE_NAME: 'Nordic' } });
    await ctx.load(DIVISION);
    for (const [who, user] of Object.entries(USERS)) session[who as keyof typeof USERS] = await signIn(ctx.app, ctx.services, user);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('sends a signed-out visitor to sign in, and back afterwards', async () => {
    for (const url of ['/bookings/new', '/my/bookings', '/bookings/50/edit']) {
      const res = await get(url, null);
      expect(res.statusCode, url).toBe(303);
      expect(res.headers.location).toBe(`/auth/login?next=${encodeURIComponent(url)}`);
    }
    const res = await postForm(ctx.app, '/bookings', { position: 'EKCH_DEL' }, null);
    expect(res.statusCode).toBe(303);
    expect(String(res.headers.location)).toMatch(/^\/auth\/login\?next=/);
  });

  it('offers a member the positions and tags they may use, in a labelled form with a CSRF token', async () => {
    const res = await get('/bookings/new', 'bo');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
    expect(res.headers['cache-control']).toBe('private, no-store');
    const page = res.body;
    for (const [id, label] of [
      ['position', 'Position'],
      ['date', 'Date'],
      ['start_at', 'Start (UTC)'],
      ['end_at', 'End (UTC)'],
      ['tag', 'Type'],
    ]) {
      expect(page).toContain(`<label for="${id}">${label}</label>`);
    }
    expect(page).toContain('<form method="post" action="/bookings"');
    expect(page).toContain('<button type="submit">Book</button>');
    expect(csrfOf(page).length).toBeGreaterThan(20);
    expect(options(page, 'position')).toEqual(['EKCH_DEL', 'EKCH_TWR']);
    expect(options(page, 'tag')).toEqual(['', '3']);
    expect(page).toContain('<option value="">Controlling</option><option value="3">Event</option>');
  });

  it('books through the API write path: listed by the API, its event written, audited as the member', async () => {
    const res = await book('bo', { position: 'EKCH_DEL', date: '2030-03-12', start_at: '14:00', end_at: '16:00', tag: '3' });
    expect(res.statusCode).toBe(303);
    const location = String(res.headers.location);
    expect(location).toMatch(/^\/my\/bookings\?done=booked&id=\d+$/);
    const id = Number(/id=(\d+)/.exec(location)![1]);

    const key = await ctx.key('read');
    const listed = (await ctx.request({ method: 'GET', url: '/api/bookings?callsign=EKCH_DEL', token: key })).json();
    expect(listed).toEqual([
      expect.objectContaining({
        id,
        user_id: BO,
        name: 'Bo Test',
        callsign: 'EKCH_DEL',
        source: 'CC',
        event: 1,
        training: 0,
        exam: 0,
        time_start: '2030-03-12 14:00:00',
      }),
    ]);
    const audit = await ctx.services.audit.read({ target: `booking:${id}` });
    expect(audit).toEqual([expect.objectContaining({ actor: `member:${BO}`, actor_name: 'Bo Test', action: 'booking.created' })]);
    const events = await ctx.services.db.kysely.selectFrom('events').select(['type', 'booking_id']).where('booking_id', '=', id).execute();
    expect(events).toEqual([{ type: 'booking.created', booking_id: id }]);

    const mine = await get(location, 'bo');
    expect(mine.body).toContain('<p class="notice" role="status">Booked: EKCH_DEL Tue 12 Mar 2030, 14:00–16:00 UTC.</p>');
    expect(mine.body).toContain(`<a href="/bookings/${id}/edit"`);
    expect(mine.body).toContain(`<form method="post" action="/bookings/${id}/cancel"`);
  });

  it("says in the date hint the formats and that the day is UTC, with today's UTC date as the example", async () => {
    const page = (await get('/bookings/new', 'bo')).body;
    expect(page).toContain('<p class="hint" id="date-hint">Day (UTC), as DD/MM/YYYY or YYYY-MM-DD, e.g. 10/03/2030</p>');
    expect(page).toMatch(/<input type="date" id="date"[^>]* min="2030-03-10"[^>]* aria-describedby="date-hint"/);
  });

  it('takes a typed d/m/Y date as well as a date input', async () => {
    const res = await book('bo', { date: '13/3/2030', start_at: '8:00', end_at: '9:00' });
    expect(res.statusCode).toBe(303);
  });

  it('shows the form again (422) with each error next to its field', async () => {
    const res = await book('bo', { date: '2030-02-30', start_at: '25:00', end_at: '' });
    expect(res.statusCode).toBe(422);
    for (const field of ['date', 'start_at', 'end_at']) {
      expect(res.body).toMatch(new RegExp(`id="${field}"[^>]*aria-describedby="[^"]*${field}-error[^"]*" aria-invalid="true"`));
      expect(res.body).toMatch(new RegExp(`<p class="error" id="${field}-error">[^<]+</p>`));
    }
    // What was typed is kept.
    expect(res.body).toContain('value="25:00"');
    const past = await book('bo', { date: '2030-03-09' });
    expect(past.statusCode).toBe(422);
    expect(past.body).toContain('<p class="error" id="start_at-error">Start time cannot be in the past</p>');
  });

  it('names the booking an overlap hits (callsign and time)', async () => {
    const res = await book('bo', { position: 'EKCH_TWR', date: '2030-03-12', start_at: '11:00', end_at: '13:00' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain(
      '<p class="error" id="start_at-error">This time overlaps EKCH_TWR booked Tue 12 Mar 2030, 10:00–12:00 UTC.</p>',
    );
  });

  it('refuses (403) a POST without a valid CSRF token, and writes nothing', async () => {
    const before = (await ctx.services.db.kysely.selectFrom('bookings').select('id').execute()).length;
    const fields = { position: 'EKCH_DEL', date: '2030-03-14', start_at: '10:00', end_at: '11:00', tag: '' };
    for (const token of [undefined, 'wrong', csrfOf((await get('/bookings/new', 'ada')).body)]) {
      const res = await postForm(ctx.app, '/bookings', token === undefined ? fields : { ...fields, _csrf: token }, session.bo!.cookie);
      expect(res.statusCode).toBe(403);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    }
    const cancel = await postForm(ctx.app, '/bookings/50/cancel', {}, session.bo!.cookie);
    expect(cancel.statusCode).toBe(403);
    expect((await ctx.services.db.kysely.selectFrom('bookings').select('id').execute()).length).toBe(before);
    expect((await ctx.services.db.kysely.selectFrom('bookings').select('deleted').where('id', '=', 50).executeTakeFirst())!.deleted).toBe(
      0,
    );
  });

  it('checks sign-in and the CSRF token before the fields: a field too long to take never decides first', async () => {
    const long = { position: 'x'.repeat(2001), date: '2030-03-14', start_at: '10:00', end_at: '11:00' };
    const out = await postForm(ctx.app, '/bookings', long, null);
    expect(out.statusCode).toBe(303);
    expect(String(out.headers.location)).toMatch(/^\/auth\/login\?next=/);
    for (const url of ['/bookings', '/bookings/50']) {
      const forged = await postForm(ctx.app, url, { ...long, _csrf: 'forged' }, session.bo!.cookie);
      expect(forged.statusCode, url).toBe(403);
      expect(forged.body).toContain('Form refused');
    }
    // With the session's token, the field itself is refused (and nothing written).
    const refused = await post('bo', '/bookings', long);
    expect(refused.statusCode).toBe(422);
  });

  describe('who may book, persona by persona', () => {
    it('member active in the area: up to their rating; above it 403 with the reason', async () => {
      expect((await book('bo', { position: 'EKCH_TWR', date: '2030-03-15' })).statusCode).toBe(303);
      const res = await book('bo', { position: 'EKCH_APP', date: '2030-03-15' });
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('EKCH_APP needs rating S3; you may book positions up to S2.');
    });

    it('member not active anywhere: nothing offered, a hand-made POST 403', async () => {
      const form = (await get('/bookings/new', 'idle')).body;
      expect(form).toContain('There is no position you may book');
      const token = csrfOf((await get('/my/bookings', 'idle')).body);
      const res = await postForm(
        ctx.app,
        '/bookings',
        { _csrf: token, position: 'EKCH_DEL', date: '2030-03-15', start_at: '10:00', end_at: '11:00', tag: '' },
        session.idle!.cookie,
      );
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('You may book EKCH_DEL only as a member');
    });

    it('visitor with an endorsement: the endorsed area, events yes, exams no', async () => {
      const form = (await get('/bookings/new', 'visitor')).body;
      expect(options(form, 'position')).toEqual(['EKCH_DEL', 'EKCH_TWR']);
      expect(options(form, 'tag')).toEqual(['', '3']);
      expect((await book('visitor', { position: 'EKCH_TWR', date: '2030-03-16', tag: '3' })).statusCode).toBe(303);
      const exam = await book('visitor', { position: 'EKCH_TWR', date: '2030-03-17', tag: '2' });
      expect(exam.statusCode).toBe(403);
      expect(exam.body).toContain('The Exam type needs a member with rating C1 or above.');
      expect((await book('visitor', { position: 'ESSA_TWR', date: '2030-03-16' })).statusCode).toBe(403);
    });

    it('visitor without an endorsement: nothing offered, refused', async () => {
      expect((await get('/bookings/new', 'stranger')).body).toContain('There is no position you may book');
      const token = csrfOf((await get('/my/bookings', 'stranger')).body);
      const fields = { _csrf: token, position: 'EKCH_DEL', date: '2030-03-16', start_at: '10:00', end_at: '11:00', tag: '3' };
      expect((await postForm(ctx.app, '/bookings', fields, session.stranger!.cookie)).statusCode).toBe(403);
    });

    it('trainee: up to the training rating, the training tag forced on plain controlling', async () => {
      const form = (await get('/bookings/new', 'trainee')).body;
      expect(options(form, 'position')).toEqual(['EKCH_APP', 'EKCH_DEL', 'EKCH_TWR']);
      // An S1 member: events too.
      expect(options(form, 'tag')).toEqual(['', '1', '3']);
      const res = await book('trainee', { position: 'EKCH_APP', date: '2030-03-18', tag: '' });
      expect(res.statusCode).toBe(303);
      const id = Number(/id=(\d+)/.exec(String(res.headers.location))![1]);
      const stored = await ctx.services.db.kysely
        .selectFrom('bookings')
        .select(['training', 'training_forced'])
        .where('id', '=', id)
        .executeTakeFirst();
      expect(stored).toEqual({ training: 1, training_forced: 1 });
      expect((await get(String(res.headers.location), 'trainee')).body).toContain('it is a training booking');
      const above = await book('trainee', { position: 'EKDK_CTR', date: '2030-03-18', tag: '1' });
      expect(above.statusCode).toBe(403);
      expect(above.body).toContain('EKDK_CTR needs rating C1; you may book positions up to S3.');
    });

    it('C1 member: an exam', async () => {
      const form = (await get('/bookings/new', 'ada')).body;
      expect(options(form, 'tag')).toEqual(['', '2', '3']);
      const res = await book('ada', { position: 'EKDK_CTR', date: '2030-03-19', tag: '2' });
      expect(res.statusCode).toBe(303);
    });

    it("member editing or cancelling someone else's booking: 403, nothing changed", async () => {
      const edit = await get('/bookings/50/edit', 'ada');
      expect(edit.statusCode).toBe(403);
      expect(edit.body).toContain('You may change or cancel only your own bookings.');
      const res = await post('ada', '/bookings/50', {
        position: 'EKCH_TWR',
        date: '2030-03-12',
        start_at: '10:00',
        end_at: '13:00',
        tag: '',
      });
      expect(res.statusCode).toBe(403);
      expect((await post('ada', '/bookings/50/cancel', {})).statusCode).toBe(403);
      const stored = await ctx.services.db.kysely
        .selectFrom('bookings')
        .select(['time_end', 'deleted'])
        .where('id', '=', 50)
        .executeTakeFirst();
      expect(stored).toEqual({ time_end: Date.UTC(2030, 2, 12, 12), deleted: 0 });
    });

    it("staff: any position and tag of their area, and another member's booking there", async () => {
      const form = (await get('/bookings/new', 'moderator')).body;
      expect(options(form, 'position')).toEqual(['EKCH_APP', 'EKCH_DEL', 'EKCH_TWR', 'EKDK_CTR']);
      expect(options(form, 'tag')).toEqual(['', '1', '2', '3']);
      const edit = await get('/bookings/50/edit', 'moderator');
      expect(edit.statusCode).toBe(200);
      expect(edit.body).toContain('<form method="post" action="/bookings/50"');
      expect(edit.body).toContain('value="10:00"');
      const res = await post('moderator', '/bookings/50', {
        position: 'EKCH_TWR',
        date: '2030-03-12',
        start_at: '10:00',
        end_at: '13:00',
        tag: '',
      });
      expect(res.statusCode).toBe(303);
      const changed = (await ctx.request({ method: 'GET', url: '/api/bookings/50', token: await ctx.key('read') })).json();
      expect(changed).toEqual(expect.objectContaining({ user_id: BO, time_end: '2030-03-12 13:00:00' }));
      const audit = await ctx.services.audit.read({ target: 'booking:50' });
      expect(audit[0]).toEqual(expect.objectContaining({ actor: `member:${USERS.moderator.id}`, action: 'booking.updated' }));
      expect((await post('moderator', '/bookings/50/cancel', {})).statusCode).toBe(303);
      expect((await ctx.request({ method: 'GET', url: '/api/bookings/50' })).statusCode).toBe(404);
    });
  });

  it('lets a member change and cancel their own booking', async () => {
    const made = await book('ada', { position: 'EKCH_TWR', date: '2030-03-20', start_at: '10:00', end_at: '11:00' });
    const id = Number(/id=(\d+)/.exec(String(made.headers.location))![1]);
    const changed = await post('ada', `/bookings/${id}`, {
      position: 'EKCH_TWR',
      date: '2030-03-20',
      start_at: '10:00',
      end_at: '12:30',
      tag: '3',
    });
    expect(changed.statusCode).toBe(303);
    expect(changed.headers.location).toBe(`/my/bookings?done=changed&id=${id}`);
    const cancelled = await post('ada', `/bookings/${id}/cancel`, {});
    expect(cancelled.statusCode).toBe(303);
    expect((await get(String(cancelled.headers.location), 'ada')).body).toContain('Cancelled: EKCH_TWR');
    const actions = (await ctx.services.audit.read({ target: `booking:${id}` })).map((e) => [e.actor, e.action]);
    expect(actions).toEqual([
      [`member:${ADA}`, 'booking.deleted'],
      [`member:${ADA}`, 'booking.updated'],
      [`member:${ADA}`, 'booking.created'],
    ]);
  });

  it('gives a member their own calendar feed address, renewable, the old one ending', async () => {
    const page = (await get('/my/bookings', 'bo')).body;
    expect(page).toContain('Make my calendar address');
    const first = await post('bo', '/my/calendar', {});
    expect(first.statusCode).toBe(303);
    const address = /id="feed-url" class="feed-url" readonly value="([^"]+)"/.exec((await get('/my/bookings', 'bo')).body)![1]!;
    const path = new URL(address).pathname;
    expect(path).toMatch(/^\/calendar\/member\/[A-Za-z0-9_-]{43}\.ics$/);
    const feed = await ctx.app.inject({ method: 'GET', url: path });
    expect(feed.statusCode).toBe(200);
    expect(feed.headers['content-type']).toBe('text/calendar; charset=utf-8');
    expect(feed.body).toMatch(/^BEGIN:VCALENDAR\r\nVERSION:2.0\r\n/);
    // Bo's bookings only.
    const summaries = [...feed.body.matchAll(/^SUMMARY:(.*)\r$/gm)].map((m) => m[1]);
    expect(summaries.length).toBeGreaterThan(0);
    const bosIds = (await ctx.services.db.kysely.selectFrom('bookings').select('id').where('user_id', '=', BO).execute()).map((b) => b.id);
    const uids = [...feed.body.matchAll(/^UID:booking-(\d+)@/gm)].map((m) => Number(m[1]));
    expect(uids.every((u) => bosIds.includes(u))).toBe(true);
    // Not on anyone else's page.
    expect((await get('/my/bookings', 'ada')).body).not.toContain(address);

    await post('bo', '/my/calendar', {});
    const renewed = /id="feed-url" class="feed-url" readonly value="([^"]+)"/.exec((await get('/my/bookings', 'bo')).body)![1]!;
    expect(renewed).not.toBe(address);
    expect((await ctx.app.inject({ method: 'GET', url: path })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: new URL(renewed).pathname })).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: 'GET', url: '/calendar/member/nothing.ics' })).statusCode).toBe(404);
  });

  it('audits each renewal of a calendar address as the member, without the secret, and ends the old address', async () => {
    const address = async () =>
      /id="feed-url" class="feed-url" readonly value="([^"]+)"/.exec((await get('/my/bookings', 'ada')).body)![1]!;
    expect((await post('ada', '/my/calendar', {})).statusCode).toBe(303);
    const first = new URL(await address()).pathname;
    expect((await post('ada', '/my/calendar', {})).statusCode).toBe(303);
    const second = new URL(await address()).pathname;
    expect((await ctx.app.inject({ method: 'GET', url: first })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: second })).statusCode).toBe(200);
    const entries = await ctx.services.audit.read({ target: `user:${ADA}` });
    const renewals = entries.filter((e) => e.action === 'calendar.renewed');
    expect(renewals).toEqual([
      {
        at: NOW,
        actor: `member:${ADA}`,
        actor_name: 'Ada Test',
        action: 'calendar.renewed',
        target: `user:${ADA}`,
        before: null,
        after: null,
      },
      {
        at: NOW,
        actor: `member:${ADA}`,
        actor_name: 'Ada Test',
        action: 'calendar.renewed',
        target: `user:${ADA}`,
        before: null,
        after: null,
      },
    ]);
    // What `sector audit` prints: the action and the member, never the secret.
    const table = auditTable(renewals).join('\n');
    expect(table).toContain('calendar.renewed');
    for (const path of [first, second]) expect(table).not.toContain(path.slice('/calendar/member/'.length, -'.ics'.length));
  });
});
