// The pages' rate limits (as the API's, counted per instance): a member's form posts, 30 a minute,
// and sign-ins started from one address, 10 a minute; past them a 429 page saying when to try
// again, with the signed-in header, and nothing done.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../support/context.js';
import { ADA, BO, buildDivision, buildUser } from '../../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../../support/members.js';

describe('rate limits of the pages', () => {
  let ctx: TestContext;
  let ada: SignedIn;
  let bo: SignedIn;
  beforeAll(async () => {
    ctx = await createTestContext({ env: { ...SIGN_IN_ENV, RATE_LIMIT: '600' } });
    await ctx.load(buildDivision({ users: [buildUser(), buildUser({ id: BO, first_name: 'Bo' })] }));
    ada = await signIn(ctx.app, ctx.services, buildUser());
    bo = await signIn(ctx.app, ctx.services, buildUser({ id: BO, first_name: 'Bo' }));
  });
  afterAll(() => ctx.close());

  const bookingCount = async () =>
    Number(
      (
        await ctx.services.db.kysely
          .selectFrom('bookings')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('takes 10 sign-ins a minute from one address, then answers a 429 page saying when to try again', async () => {
    const start = (remoteAddress = '192.0.2.10') => ctx.app.inject({ method: 'GET', url: '/auth/login', remoteAddress });
    for (let i = 0; i < 10; i++) expect((await start()).statusCode).toBe(302);
    const refused = await start();
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['content-type']).toBe('text/html; charset=utf-8');
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.body).toContain(`at most 10 sign-ins a minute from your address; nothing was done. Try again in ${wait} s`);
    // Another address is counted on its own.
    expect((await start('192.0.2.11')).statusCode).toBe(302);
  });

  it('takes 30 form posts a minute from a member, then a 429 page in their header; another member and pages to view go on', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/bookings/new', headers: { cookie: ada.cookie } });
    const form = { _csrf: csrfOf(page.body), position: 'EKCH_TWR', date: 'not a date', start_at: '10:00', end_at: '12:00', tag: '' };
    for (let i = 0; i < 30; i++) expect((await postForm(ctx.app, '/bookings', form, ada.cookie)).statusCode).toBe(422);
    const refused = await postForm(ctx.app, '/bookings', { ...form, date: '2030-03-12' }, ada.cookie);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(refused.body).toContain('at most 30 forms a minute from your account; nothing was done. Try again in');
    expect(refused.body).toContain(`Signed in as <strong>Ada Lind</strong> (${ADA})`);
    expect(await bookingCount()).toBe(0);
    // Viewing is not limited; Bo's posts are his own.
    expect((await ctx.app.inject({ method: 'GET', url: '/my/bookings', headers: { cookie: ada.cookie } })).statusCode).toBe(200);
    const boPage = await ctx.app.inject({ method: 'GET', url: '/bookings/new', headers: { cookie: bo.cookie } });
    expect((await postForm(ctx.app, '/bookings', { ...form, _csrf: csrfOf(boPage.body) }, bo.cookie)).statusCode).toBe(422);
  });
});
