// The cookies of the pages under an https PUBLIC_URL carry the `__Host-` prefix (docs/sign-in.md,
// "Sessions"): a browser takes such a cookie only with Secure, Path=/ and no Domain, so a sibling
// subdomain that may set cookies for the parent domain cannot plant a session or a sign-in. Over
// plain http (local development) the names stay as contract §14 gives them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { connectUser, type ConnectStandIn, startConnectStandIn } from '../../support/connect-stand-in.js';
import { formToken, MemberBrowser } from '../../support/member-browser.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);

/** The Set-Cookie headers of a response, as sent. */
const setCookies = (headers: { 'set-cookie'?: string | string[] | undefined }): string[] => {
  const v = headers['set-cookie'];
  return v === undefined ? [] : Array.isArray(v) ? v : [v];
};
const nameOf = (setCookie: string) => setCookie.slice(0, setCookie.indexOf('='));
const attributes = (setCookie: string) =>
  setCookie
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase());

describe.each([
  ['https://bookings.example.org', '__Host-'],
  ['http://127.0.0.1:8080', ''],
] as const)('page cookies with PUBLIC_URL=%s', (publicUrl, prefix) => {
  let connect: ConnectStandIn;
  let ctx: TestContext;

  beforeAll(async () => {
    connect = await startConnectStandIn();
    connect.setUser(connectUser(1234567, { id: 3, short: 'S2' }, { name_first: 'Karin', name_last: 'Holm' }));
    ctx = await createTestContext({
      now: NOW,
      env: {
        CONNECT_URL: connect.url,
        CONNECT_CLIENT_ID: connect.clientId,
        CONNECT_CLIENT_SECRET: connect.clientSecret,
        PUBLIC_URL: publicUrl,
      },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await connect.close();
  });

  it(`names every cookie the pages set ${prefix === '' ? 'without a prefix over http' : 'with __Host- (Path=/, Secure, no Domain) under https'}`, async () => {
    const browser = new MemberBrowser(ctx.app);
    const login = await browser.get('/auth/login');
    const callback = await browser.signIn(connect);
    const page = await browser.get('/');
    const logout = await browser.post('/auth/logout', { _csrf: formToken(page.body) });
    const sent = [login, callback, logout].flatMap((r) => setCookies(r.headers));
    // Set at /auth/login and cleared at the callback; set at the callback and cleared at sign-out.
    expect(sent.map(nameOf)).toEqual([
      `${prefix}sector_login`,
      `${prefix}sector_login`,
      `${prefix}sector_session`,
      `${prefix}sector_session`,
    ]);
    for (const cookie of sent) {
      const attrs = attributes(cookie);
      expect(attrs, cookie).toContain('path=/');
      expect(
        attrs.some((a) => a.startsWith('domain')),
        cookie,
      ).toBe(false);
      expect(attrs.includes('secure'), cookie).toBe(prefix !== '');
      expect(attrs, cookie).toContain('httponly');
    }
  });

  if (prefix !== '') {
    it('does not take a session from a cookie without the __Host- prefix under https', async () => {
      const browser = new MemberBrowser(ctx.app);
      await browser.signIn(connect);
      const value = browser.cookies.get('__Host-sector_session');
      expect(value).toBeDefined();
      expect((await browser.get('/')).body).toContain('Sign out');
      // The same signed session id under the unprefixed name, as a sibling subdomain could set it.
      const planted = new MemberBrowser(ctx.app);
      planted.cookies.set('sector_session', value!);
      const r = await planted.get('/');
      expect(r.body).not.toContain('Sign out');
      expect(r.body).toContain('Sign in');
      expect((await planted.get('/my/bookings')).statusCode).toBe(303);
    });

    it('does not take a sign-in under way from a cookie without the __Host- prefix under https', async () => {
      const browser = new MemberBrowser(ctx.app);
      const callback = await browser.startSignIn(connect);
      const value = browser.cookies.get('__Host-sector_login');
      expect(value).toBeDefined();
      const planted = new MemberBrowser(ctx.app);
      planted.cookies.set('sector_login', value!);
      const r = await planted.get(callback);
      expect(r.statusCode).toBe(400);
      expect(r.body).toContain('started in another browser');
    });
  }
});
