// Signing in with the network's account (contract §14) against the VATSIM Connect stand-in: the
// whole flow, and every way it can fail, each leaving nothing stored.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { connectUser, type ConnectStandIn, startConnectStandIn } from '../../support/connect-stand-in.js';
import { formToken, MemberBrowser } from '../../support/member-browser.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const MINUTE = 60_000;
const DAY = 86_400_000;

describe('sign-in with the network account', () => {
  let connect: ConnectStandIn;
  let ctx: TestContext;

  const count = async (table: 'users' | 'sessions' | 'audit_log' | 'login_states') =>
    Number(
      (
        await ctx.services.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const nothingStored = async () => {
    expect(await count('users')).toBe(0);
    expect(await count('sessions')).toBe(0);
    expect(await count('audit_log')).toBe(0);
  };

  beforeAll(async () => {
    connect = await startConnectStandIn();
  });
  afterAll(async () => {
    await connect.close();
  });
  beforeEach(async () => {
    connect.setFailures({});
    connect.setConsent(true);
    connect.tokenRequests.length = 0;
    connect.setUser(connectUser(1234567, { id: 3, short: 'S2' }, { name_first: 'Karin', name_last: 'Holm' }));
    ctx = await createTestContext({
      now: NOW,
      env: {
        CONNECT_URL: connect.url,
        CONNECT_CLIENT_ID: connect.clientId,
        CONNECT_CLIENT_SECRET: connect.clientSecret,
        PUBLIC_URL: 'https://bookings.example.org',
        CONNECT_TIMEOUT_MS: '500',
      },
    });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('sends the browser to the network with PKCE and state, and signs the member in on the way back', async () => {
    const browser = new MemberBrowser(ctx.app);
    const login = await browser.get('/auth/login?next=%2F%3Farea%3DDenmark');
    expect(login.statusCode).toBe(302);
    const to = new URL(String(login.headers.location));
    expect(`${to.origin}${to.pathname}`).toBe(`${connect.url}/oauth/authorize`);
    const q = to.searchParams;
    expect(q.get('response_type')).toBe('code');
    expect(q.get('client_id')).toBe(connect.clientId);
    expect(q.get('redirect_uri')).toBe('https://bookings.example.org/auth/callback');
    expect(q.get('scope')).toBe('full_name email vatsim_details');
    expect(q.get('code_challenge_method')).toBe('S256');
    expect(q.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get('state')!.length).toBeGreaterThanOrEqual(32);
    const loginCookie = (login.cookies as Array<{ name: string; httpOnly?: boolean; secure?: boolean; sameSite?: string }>).find(
      (c) => c.name === '__Host-sector_login',
    );
    expect(loginCookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax' });

    const authorize = await fetch(to, { redirect: 'manual' });
    const back = new URL(authorize.headers.get('location')!);
    const done = await browser.get(`${back.pathname}${back.search}`);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/?area=Denmark');

    const session = (done.cookies as Array<Record<string, unknown>>).find((c) => c.name === '__Host-sector_session');
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Lax', path: '/' });
    // The token request: the form body the network expects, with the verifier of the challenge.
    const form = connect.tokenRequests.at(-1)!;
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('client_id')).toBe(connect.clientId);
    expect(form.get('client_secret')).toBe(connect.clientSecret);
    expect(form.get('redirect_uri')).toBe('https://bookings.example.org/auth/callback');
    expect(form.get('code')).toBe(back.searchParams.get('code'));
    expect(form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,128}$/);

    const user = await ctx.services.db.kysely.selectFrom('users').selectAll().where('id', '=', 1234567).executeTakeFirstOrThrow();
    expect(user).toMatchObject({
      first_name: 'Karin',
      last_name: 'Holm',
      email: '1234567@example.org',
      rating: 3,
      region: 'EMEA',
      division: 'EUD',
      subdivision: 'SCA',
    });
    expect(user.last_login_at).toBe(NOW);
    const audit = await ctx.services.db.kysely.selectFrom('audit_log').selectAll().execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor: 'member:1234567', actor_name: 'Karin Holm', action: 'member.sign_in', target: 'user:1234567' });
    // No token is kept anywhere: not in the database, not in a cookie.
    const everything = JSON.stringify([
      await ctx.services.db.kysely.selectFrom('sessions').selectAll().execute(),
      audit,
      browser.cookieHeader(),
    ]);
    for (const token of connect.userRequests) expect(everything).not.toContain(token);

    const page = await browser.get('/');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Karin Holm');
    expect(page.body).toContain('Sign out');
    expect(page.headers['cache-control']).toBe('private, no-store');
  });

  it('updates a known member from the network at the next sign-in', async () => {
    await new MemberBrowser(ctx.app).signIn(connect);
    connect.setUser(connectUser(1234567, { id: 4, short: 'S3' }, { name_first: 'Karin', name_last: 'Holm-Berg' }));
    ctx.setNow(NOW + DAY);
    expect((await new MemberBrowser(ctx.app).signIn(connect)).statusCode).toBe(303);
    const user = await ctx.services.db.kysely.selectFrom('users').selectAll().executeTakeFirstOrThrow();
    expect(user).toMatchObject({ last_name: 'Holm-Berg', rating: 4, created_at: NOW });
    expect(user.last_login_at).toBe(NOW + DAY);
    const second = await ctx.services.db.kysely.selectFrom('audit_log').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(JSON.parse(second.after!)).toEqual({ last_name: 'Holm-Berg', rating: 4 });
  });

  it('a name with a NUL or a line break in it is stored without them, and the member signs in', async () => {
    connect.setUser(connectUser(1234567, { id: 3, short: 'S2' }, { name_first: 'Ka\u0000rin\r\n', name_last: 'Holm\r\nBerg\u0007' }));
    const r = await new MemberBrowser(ctx.app).signIn(connect);
    expect(r.statusCode).toBe(303);
    const user = await ctx.services.db.kysely.selectFrom('users').select(['first_name', 'last_name']).executeTakeFirstOrThrow();
    expect(user).toEqual({ first_name: 'Karin', last_name: 'Holm Berg' });
    const audit = await ctx.services.db.kysely.selectFrom('audit_log').select('actor_name').executeTakeFirstOrThrow();
    expect(audit.actor_name).toBe('Karin Holm Berg');
  });

  it('refused consent: 400 page with a link to try again, nothing stored', async () => {
    connect.setConsent(false);
    const r = await new MemberBrowser(ctx.app).signIn(connect);
    expect(r.statusCode).toBe(400);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.body).toContain('You did not allow the sign-in');
    expect(r.body).toContain('href="/auth/login?next=%2F"');
    expect(r.cookies.find((c) => c.name === '__Host-sector_session')).toBeUndefined();
    expect(connect.tokenRequests).toHaveLength(0);
    await nothingStored();
  });

  it('a callback without state, with a made-up one, or used twice: 400, nothing stored', async () => {
    const browser = new MemberBrowser(ctx.app);
    const callback = await browser.startSignIn(connect);
    const code = new URL(callback, 'http://x').searchParams.get('code')!;
    const missing = await browser.get(`/auth/callback?code=${code}`);
    expect(missing.statusCode).toBe(400);
    expect(missing.body).toContain('did not say which sign-in');
    const madeUp = await browser.get(`/auth/callback?code=${code}&state=madeup`);
    expect(madeUp.statusCode).toBe(400);
    expect(madeUp.body).toContain('already used or is not known');
    await nothingStored();

    const again = new MemberBrowser(ctx.app);
    const path = await again.startSignIn(connect);
    const replay = again.clone();
    expect((await again.get(path)).statusCode).toBe(303);
    const second = await replay.get(path);
    expect(second.statusCode).toBe(400);
    expect(second.body).toContain('already used or is not known');
    expect(await count('sessions')).toBe(1);
  });

  it('a state older than ten minutes: 400, nothing stored', async () => {
    const browser = new MemberBrowser(ctx.app);
    const callback = await browser.startSignIn(connect);
    ctx.setNow(NOW + 10 * MINUTE + 1);
    const r = await browser.get(callback);
    expect(r.statusCode).toBe(400);
    expect(r.body).toContain('expired');
    expect(connect.tokenRequests).toHaveLength(0);
    await nothingStored();
  });

  it('a state started in another browser: 400, nothing stored', async () => {
    const victim = new MemberBrowser(ctx.app);
    const callback = await victim.startSignIn(connect);
    // Another browser (no sign-in cookie, or its own from another sign-in) cannot use it.
    const other = new MemberBrowser(ctx.app);
    await other.startSignIn(connect);
    const r = await other.get(callback);
    expect(r.statusCode).toBe(400);
    expect(r.body).toContain('started in another browser');
    expect(connect.tokenRequests).toHaveLength(0);
    await nothingStored();
  });

  it.each([
    ['400 invalid_grant', { tokenStatus: 400 }, 'refused the sign-in (invalid_grant)'],
    ['500', { tokenStatus: 500 }, 'the network responded with something unexpected'],
    ['no response', { tokenHangs: true }, 'did not respond in time'],
    ['/api/user 500', { userStatus: 500 }, 'responded with 500'],
    ['/api/user not JSON', { userBody: '<html>oops' }, 'not JSON'],
    ['/api/user without data', { userBody: '{"cid":"1234567"}' }, 'something unexpected about you'],
    ['/api/user with a bad cid', { userBody: '{"data":{"cid":"12x","personal":{},"vatsim":{}}}' }, 'something unexpected about you'],
  ] as const)('the network fails (%s): 400 page, nothing stored', async (_what, failures, message) => {
    connect.setFailures(failures);
    const r = await new MemberBrowser(ctx.app).signIn(connect);
    expect(r.statusCode).toBe(400);
    expect(r.headers['content-type']).toMatch(/^text\/html/);
    expect(r.body).toContain(message);
    expect(r.body).toContain('Try again');
    await nothingStored();
  });

  it.each([
    ['SUS', 0, 'suspended'],
    ['INA', -1, 'inactive'],
  ] as const)('a %s member is not signed in', async (short, id, word) => {
    connect.setUser(connectUser(1234567, { id, short }));
    const r = await new MemberBrowser(ctx.app).signIn(connect);
    expect(r.statusCode).toBe(400);
    expect(r.body).toContain(word);
    await nothingStored();
  });

  it.each([
    ['C2', 6],
    ['I2', 9],
  ] as const)('a %s member signs in', async (short, id) => {
    connect.setUser(connectUser(1234567, { id, short }));
    expect((await new MemberBrowser(ctx.app).signIn(connect)).statusCode).toBe(303);
    expect(await ctx.services.db.kysely.selectFrom('users').select('rating').executeTakeFirstOrThrow()).toEqual({ rating: id });
  });

  it('a member whose rating number is not in the list is told so, not that the network failed; nothing stored', async () => {
    connect.setUser(connectUser(1234567, { id: 13, short: 'XX' }));
    const r = await new MemberBrowser(ctx.app).signIn(connect);
    expect(r.statusCode).toBe(400);
    expect(r.body).toContain('rating number 13, which is not a rating this site knows');
    expect(r.body).not.toContain('unexpected');
    await nothingStored();
  });

  it('a session cookie set before sign-in is not the one after (no fixation), and the old one is ended', async () => {
    const browser = new MemberBrowser(ctx.app);
    await browser.signIn(connect);
    const before = browser.cookies.get('__Host-sector_session')!;
    const planted = browser.clone();
    // Signing in again in the same browser (or after someone planted their cookie in it).
    await browser.signIn(connect);
    const after = browser.cookies.get('__Host-sector_session')!;
    expect(after).not.toBe(before);
    expect(await count('sessions')).toBe(1);
    expect((await planted.get('/')).body).not.toContain('Sign out');
    expect((await browser.get('/')).body).toContain('Sign out');
  });

  it('lands on the member home when no page was asked for, and on the page asked for otherwise', async () => {
    const home = await new MemberBrowser(ctx.app).signIn(connect);
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe('/my');
    const asked = await new MemberBrowser(ctx.app).signIn(connect, '/my/bookings');
    expect(asked.headers.location).toBe('/my/bookings');
  });

  it.each([
    '//evil.example',
    '/\\evil.example',
    'https://evil.example/',
    '/%2F%2Fevil.example',
    '/%5Cevil.example',
    '/%2f%2fevil.example',
    '///evil.example',
    '/\t/evil.example',
    'javascript:alert(1)',
    'evil.example',
    '/auth/logout',
  ])('next=%j is not followed: back to /', async (next) => {
    const r = await new MemberBrowser(ctx.app).signIn(connect, next);
    expect(r.statusCode).toBe(303);
    expect(r.headers.location).toBe('/');
  });

  it('sign-out ends the session: the same cookie is refused afterwards; sign-out needs the form token', async () => {
    const browser = new MemberBrowser(ctx.app);
    await browser.signIn(connect);
    const stolen = browser.clone();
    const page = await browser.get('/');

    const missing = await browser.post('/auth/logout', {});
    expect(missing.statusCode).toBe(403);
    const wrong = await browser.post('/auth/logout', { _csrf: 'x'.repeat(40) });
    expect(wrong.statusCode).toBe(403);
    expect(wrong.headers['content-type']).toMatch(/^text\/html/);
    // A token of another session is no token of this one.
    const other = new MemberBrowser(ctx.app);
    await other.signIn(connect);
    const othersToken = formToken((await other.get('/')).body);
    expect((await browser.post('/auth/logout', { _csrf: othersToken })).statusCode).toBe(403);
    expect(await count('sessions')).toBe(2);

    const out = await browser.post('/auth/logout', { _csrf: formToken(page.body) });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/');
    expect(browser.cookies.has('__Host-sector_session')).toBe(false);
    expect(await count('sessions')).toBe(1);
    const after = await stolen.get('/');
    expect(after.body).not.toContain('Sign out');
    expect(after.body).toContain('Sign in');
  });

  it('a session idle for 30 days is over; one used within them goes on', async () => {
    const browser = new MemberBrowser(ctx.app);
    await browser.signIn(connect);
    ctx.setNow(NOW + 29 * DAY);
    expect((await browser.get('/')).body).toContain('Sign out');
    ctx.setNow(NOW + 29 * DAY + 30 * DAY - MINUTE);
    expect((await browser.get('/')).body).toContain('Sign out');
    ctx.setNow(NOW + 29 * DAY + 60 * DAY);
    const r = await browser.get('/');
    expect(r.body).not.toContain('Sign out');
    expect(await count('sessions')).toBe(0);
  });

  it('a session cookie with a wrong signature is no session', async () => {
    const browser = new MemberBrowser(ctx.app);
    await browser.signIn(connect);
    const value = browser.cookies.get('__Host-sector_session')!;
    const forged = browser.clone();
    forged.cookies.set('__Host-sector_session', `${value.split('.')[0]}.AAAA`);
    expect((await forged.get('/')).body).not.toContain('Sign out');
  });
});
