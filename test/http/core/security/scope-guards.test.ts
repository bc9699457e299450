// Guards belong to scopes, not to routes: a throwaway route added to each scope, with no guard of its
// own, is guarded as the scope's own routes are. API: 401 without a key. Members' pages: sign-in,
// then a form's CSRF token. Staff pages: sign-in, the token, then a role. Public: open to anyone.
// Each check comes before the body's fields are validated (a too-long field never decides first).
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csrfToken } from '../../../../src/core/web/pages.js';
import { createTestContext, type TestContext } from '../../../support/context.js';
import { buildDivision, buildRole, buildUser } from '../../../support/factories.js';
import { postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../../support/members.js';

const NOW = Date.UTC(2030, 2, 10, 12);
const MENTOR = 1000012;
const PLAIN = 1000013;
const users = [
  buildUser({ id: MENTOR, first_name: 'Mette', last_name: 'Mentor', rating: 'S3' }),
  buildUser({ id: PLAIN, first_name: 'Per', last_name: 'Plain', rating: 'S2' }),
];

/** A form field of at most 5 characters: a longer one is refused by validation (422) if a request gets that far. */
const form = {
  body: {
    type: 'object',
    properties: { note: { type: 'string', maxLength: 5 }, _csrf: { type: 'string' } },
    required: ['note'],
  },
};

/** A GET (answering with a CSRF token of the session, when there is one) and a POST at `path`, with no guard of their own. */
const throwaway =
  (path: string): FastifyPluginAsync =>
  async (scope) => {
    scope.get(path, async (request) => (request.memberSession ? csrfToken(request) : 'open'));
    scope.post(path, { schema: form }, async () => 'done');
  };

describe('guards on scopes: a route added to a scope is guarded without a line of its own', () => {
  let ctx: TestContext;
  const as: Record<string, SignedIn> = {};
  const get = (url: string, who?: string) => ctx.app.inject({ method: 'GET', url, headers: who ? { cookie: as[who]!.cookie } : {} });
  const tokenOf = async (url: string, who: string) => (await get(url, who)).body;

  beforeAll(async () => {
    ctx = await createTestContext({
      now: NOW,
      env: { ...SIGN_IN_ENV, DIVISION: 'EUD' },
      routes: {
        api: throwaway('/api/throwaway'),
        members: throwaway('/throwaway/member'),
        staff: throwaway('/throwaway/staff'),
        publicPages: throwaway('/throwaway/page'),
        public: throwaway('/throwaway/open'),
      },
    });
    await ctx.load(buildDivision({ areas: ['Denmark'], users, roles: [buildRole({ user_id: MENTOR, area: 'Denmark', role: 'Mentor' })] }));
    for (const [name, id] of Object.entries({ MENTOR, PLAIN }))
      as[name] = await signIn(
        ctx.app,
        ctx.services,
        users.find((u) => u.id === id)!,
      );
  });
  afterAll(() => ctx.close());

  it('API scope: 401 with the Bearer challenge without a key, also before a too-long field; a key gets through', async () => {
    const out = await ctx.request({ method: 'GET', url: '/api/throwaway' });
    expect(out.statusCode).toBe(401);
    expect(out.headers['www-authenticate']).toMatch(/^Bearer/);
    expect(out.json()).toEqual({ message: 'An API key is required: send Authorization: Bearer <API_KEY>' });
    const post = await ctx.request({ method: 'POST', url: '/api/throwaway', payload: { note: 'x'.repeat(50) } });
    expect(post.statusCode).toBe(401);
    const keyed = await ctx.request({ method: 'GET', url: '/api/throwaway', token: await ctx.key('read') });
    expect(keyed.statusCode).toBe(200);
  });

  it("members' scope: signed out to sign-in; a form without the session's token refused before its fields; signed in it serves", async () => {
    const out = await get('/throwaway/member');
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/auth/login?next=%2Fthrowaway%2Fmember');
    const long = { note: 'x'.repeat(50) };
    const outPost = await postForm(ctx.app, '/throwaway/member', long, null);
    expect(outPost.statusCode).toBe(303);
    expect(String(outPost.headers.location)).toMatch(/^\/auth\/login\?next=/);
    for (const fields of [long, { ...long, _csrf: 'forged' }]) {
      const forged = await postForm(ctx.app, '/throwaway/member', fields, as.PLAIN!.cookie);
      expect(forged.statusCode).toBe(403);
      expect(forged.body).toContain('Form refused');
    }
    const token = await tokenOf('/throwaway/member', 'PLAIN');
    expect((await postForm(ctx.app, '/throwaway/member', { ...long, _csrf: token }, as.PLAIN!.cookie)).statusCode).toBe(422);
    expect((await postForm(ctx.app, '/throwaway/member', { note: 'ok', _csrf: token }, as.PLAIN!.cookie)).statusCode).toBe(200);
  });

  it('staff scope: signed out to sign-in; a member without a role 403; a form without the token refused; a role holder served', async () => {
    const out = await get('/throwaway/staff');
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/auth/login?next=%2Fthrowaway%2Fstaff');
    const plain = await get('/throwaway/staff', 'PLAIN');
    expect(plain.statusCode).toBe(403);
    expect(plain.body).toContain('The staff pages are for members holding a role');
    const long = { note: 'x'.repeat(50) };
    const forged = await postForm(ctx.app, '/throwaway/staff', { ...long, _csrf: 'forged' }, as.MENTOR!.cookie);
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('Form refused');
    // The role is checked after the token: a member without a role, with a good token, is refused for the role.
    const plainToken = await tokenOf('/throwaway/member', 'PLAIN');
    const noRole = await postForm(ctx.app, '/throwaway/staff', { ...long, _csrf: plainToken }, as.PLAIN!.cookie);
    expect(noRole.statusCode).toBe(403);
    expect(noRole.body).toContain('The staff pages are for members holding a role');
    const token = await tokenOf('/throwaway/staff', 'MENTOR');
    expect((await get('/throwaway/staff', 'MENTOR')).statusCode).toBe(200);
    expect((await postForm(ctx.app, '/throwaway/staff', { ...long, _csrf: token }, as.MENTOR!.cookie)).statusCode).toBe(422);
    expect((await postForm(ctx.app, '/throwaway/staff', { note: 'ok', _csrf: token }, as.MENTOR!.cookie)).statusCode).toBe(200);
  });

  it("public: open to anyone, signed in or not; a signed-in member's form still carries their token", async () => {
    for (const url of ['/throwaway/open', '/throwaway/page']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toBe('open');
    }
    expect((await get('/throwaway/page', 'PLAIN')).statusCode).toBe(200);
    expect((await postForm(ctx.app, '/throwaway/page', { note: 'ok' }, null)).statusCode).toBe(200);
    const forged = await postForm(ctx.app, '/throwaway/page', { note: 'ok', _csrf: 'forged' }, as.PLAIN!.cookie);
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('Form refused');
  });
});
