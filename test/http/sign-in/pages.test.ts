// What signing in changes on the schedule page (contract §14 "Pages"): the account bar, and who
// booked each position for signed-in members only. With sign-in off the page is as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { connectUser, type ConnectStandIn, startConnectStandIn } from '../../support/connect-stand-in.js';
import { buildBooking, buildDivision, buildUser } from '../../support/factories.js';
import { MemberBrowser } from '../../support/member-browser.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const DIVISION = buildDivision({
  users: [buildUser({ id: 1000001, first_name: 'Adalbert', last_name: 'Lindqvist' })],
  bookings: [buildBooking({ user_id: 1000001, time_start: '2026-03-11 10:00:00', time_end: '2026-03-11 12:00:00' })],
});

describe('the schedule page with sign-in on', () => {
  let connect: ConnectStandIn;
  let ctx: TestContext;

  beforeAll(async () => {
    connect = await startConnectStandIn();
    connect.setUser(connectUser(1234567, { id: 2, short: 'S1' }, { name_first: 'Karin', name_last: 'Holm' }));
    ctx = await createTestContext({
      now: NOW,
      env: { CONNECT_URL: connect.url, CONNECT_CLIENT_ID: connect.clientId, CONNECT_CLIENT_SECRET: connect.clientSecret },
    });
    await ctx.load(DIVISION);
  });
  afterAll(async () => {
    await ctx.close();
    await connect.close();
  });

  it('signed out: a "Sign in" link and the reduced form (no names, no CIDs)', async () => {
    const r = await new MemberBrowser(ctx.app).get('/');
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('<a href="/auth/login">Sign in</a>');
    expect(r.body).toContain('EKCH_TWR');
    expect(r.body).not.toContain('Lindqvist');
    expect(r.body).not.toContain('1000001');
    expect(r.body).not.toContain('Booked by');
    expect(r.headers.vary).toMatch(/cookie/i);
  });

  it("signed in: the member's name, Sign out, the links to booking, and who booked each position", async () => {
    const browser = new MemberBrowser(ctx.app);
    await browser.signIn(connect);
    const r = await browser.get('/');
    expect(r.statusCode).toBe(200);
    expect(r.body).toContain('Signed in as <strong>Karin Holm</strong> (1234567)');
    expect(r.body).toMatch(
      /<form method="post" action="\/auth\/logout"[^>]*>\s*<input type="hidden" name="_csrf" value="[^"]+" ?\/?>\s*<button type="submit">Sign out<\/button>/,
    );
    expect(r.body).toContain('<a href="/bookings/new">Book a position</a>');
    expect(r.body).toContain('<a href="/my/bookings">My bookings</a>');
    expect(r.body).toContain('<th scope="col">Booked by</th>');
    expect(r.body).toContain('<span class="booker">Adalbert Lindqvist <span class="muted">(1000001)</span></span>');
    expect(r.headers['cache-control']).toBe('private, no-store');
    expect(r.headers['content-security-policy']).toContain("form-action 'self'");
    // The public page (kept in memory) never carries a member's page.
    const anonymous = await new MemberBrowser(ctx.app).get('/');
    expect(anonymous.body).not.toContain('Karin Holm');
    expect(anonymous.body).not.toContain('Lindqvist');
  });
});

describe('the schedule page with sign-in off', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(DIVISION);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('has no account bar, and /auth/login says sign-in is not set up', async () => {
    const page = await ctx.request({ method: 'GET', url: '/' });
    expect(page.body).not.toContain('Sign in');
    expect(page.body).not.toContain('class="account"');
    const login = await ctx.request({ method: 'GET', url: '/auth/login' });
    expect(login.statusCode).toBe(404);
    expect(login.headers['content-type']).toMatch(/^text\/html/);
    expect(login.body).toContain('Signing in is not set up');
  });

  it('ignores a session cookie', async () => {
    const page = await ctx.request({ method: 'GET', url: '/', headers: { cookie: 'sector_session=whatever.sig' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('Sign out');
  });
});
