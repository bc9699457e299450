// Request shapes a hostile client tries: a filter that ties the public list to one person,
// form fields named like Object.prototype members, an array index past the parser's limit,
// updates that change nothing, and files missing under the docs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../support/context.js';
import { ADA, BO, buildBooking, buildDivision, buildPosition, buildUser } from '../../../support/factories.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);

const DIVISION = buildDivision({
  users: [buildUser(), buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg' })],
  positions: [buildPosition('EKCH_DEL')],
  bookings: [
    buildBooking({ id: 1, user_id: ADA, callsign: 'EKCH_DEL', time_start: '2026-03-12 10:00:00', time_end: '2026-03-12 12:00:00' }),
    buildBooking({ id: 2, user_id: BO, callsign: 'EKCH_DEL', time_start: '2026-03-13 10:00:00', time_end: '2026-03-13 12:00:00' }),
  ],
});

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('hardening of the HTTP interface', () => {
  let ctx: TestContext;
  let read: string;
  let edit: string;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(DIVISION);
    read = await ctx.key('read');
    edit = await ctx.key('edit');
  });
  afterAll(() => ctx.close());

  describe('GET /api/bookings?cid=', () => {
    it('needs a key: without one it is 401, whatever the value, and names the filter', async () => {
      for (const query of [`cid=${ADA}`, 'cid=abc', `cid=${BO}&from=2026-03-01`, `cid=${ADA}&limit=1`]) {
        const res = await ctx.request({ method: 'GET', url: `/api/bookings?${query}` });
        expect(res.statusCode, query).toBe(401);
        expect(res.headers['www-authenticate'], query).toBe('Bearer realm="sector"');
        expect(res.json(), query).toEqual({ message: expect.stringMatching(/cid.*API key/) });
        expect(res.headers['x-content-type-options']).toBe('nosniff');
      }
    });

    it('returns, with a key, in the full form, only that user’s bookings', async () => {
      const res = await ctx.request({ method: 'GET', url: `/api/bookings?cid=${BO}`, token: read });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual([expect.objectContaining({ id: 2, user_id: BO, name: 'Bo Berg' })]);
    });

    it('leaves the public list and its other filters open', async () => {
      for (const query of ['', '?callsign=EKCH_DEL', '?from=2026-03-13', '?limit=1']) {
        expect((await ctx.request({ method: 'GET', url: `/api/bookings${query}` })).statusCode, query).toBe(200);
      }
    });

    it('says so in the OpenAPI document', async () => {
      const doc = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json();
      const cid = doc.paths['/api/bookings'].get.parameters.find((p: { name: string }) => p.name === 'cid');
      expect(cid.description).toMatch(/needs an API key.*401/i);
    });
  });

  describe('form fields named like Object.prototype members', () => {
    const booking = `cid=${ADA}&date=20/3/2026&start_at=10:00&end_at=11:00&position=EKCH_DEL`;

    it('are refused with 422 "not allowed", like any unknown field, and nothing is created', async () => {
      for (const field of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', '__defineGetter__']) {
        const res = await ctx.request({
          method: 'POST',
          url: '/api/bookings/create',
          token: edit,
          headers: FORM,
          payload: `${booking}&${field}=1`,
        });
        expect(res.statusCode, field).toBe(422);
        expect(res.json(), field).toEqual({
          message: `The ${field} field is not allowed.`,
          errors: { [field]: [`The ${field} field is not allowed.`] },
        });
      }
      // Percent-encoded names are the same names.
      const encoded = await ctx.request({
        method: 'POST',
        url: '/api/bookings/create',
        token: edit,
        headers: FORM,
        payload: `${booking}&%63onstructor=1`,
      });
      expect(encoded.json().errors).toEqual({ constructor: ['The constructor field is not allowed.'] });
      expect((await ctx.request({ method: 'GET', url: '/api/bookings', token: read })).json()).toHaveLength(2);
    });

    it('are refused on an update too', async () => {
      const res = await ctx.request({
        method: 'PATCH',
        url: '/api/bookings/1',
        token: edit,
        headers: FORM,
        payload: 'toString=x&end_at=12:30',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ toString: ['The toString field is not allowed.'] });
    });
  });

  describe('an array index past the query limit', () => {
    it('is one value: include[50]=allUsers is include=allUsers', async () => {
      const plain = await ctx.request({ method: 'GET', url: '/api/users?include=allUsers', token: read });
      expect(plain.statusCode).toBe(200);
      for (const query of [
        'include[50]=allUsers',
        'include[999999]=allUsers',
        'include%5B50%5D=allUsers',
        'include[0]=allUsers&include[77]=name',
      ]) {
        const res = await ctx.request({ method: 'GET', url: `/api/users?${query}`, token: read });
        expect(res.statusCode, query).toBe(200);
        if (!query.includes('name')) expect(res.body, query).toBe(plain.body);
      }
      const withName = await ctx.request({ method: 'GET', url: '/api/users?include[0]=allUsers&include[77]=name', token: read });
      expect(withName.json()[0]).toMatchObject({ id: ADA, first_name: 'Ada' });
    });

    it('still counts values: 51 of one parameter are too many, whatever their indices', async () => {
      const many = Array.from({ length: 51 }, (_, i) => `include[${i + 60}]=name`).join('&');
      const res = await ctx.request({ method: 'GET', url: `/api/users?${many}`, token: read });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ message: 'Too many values for one query parameter: at most 50 are accepted' });
    });
  });

  describe('an update that changes nothing', () => {
    it('is 422 and leaves the booking, updated_at included, as it was', async () => {
      const before = (await ctx.request({ method: 'GET', url: '/api/bookings/2', token: read })).json();
      ctx.setNow(NOW + 60_000);
      const cases: Array<[string, Parameters<TestContext['request']>[0]]> = [
        ['no body', {}],
        ['an empty JSON object', { payload: {} }],
        ['only null or empty fields', { payload: { cid: null, date: '', start_at: null, end_at: '', position: null } }],
        ['only blank form fields', { headers: FORM, payload: 'cid=&date=&position=' }],
        ['an empty JSON body', { headers: { 'content-type': 'application/json' }, payload: '' }],
      ];
      for (const [what, request] of cases) {
        const res = await ctx.request({ method: 'PATCH', url: '/api/bookings/2', token: edit, ...request });
        expect(res.statusCode, what).toBe(422);
        expect(res.json(), what).toEqual({
          message: 'The body must give at least one field to change: cid, date, start_at, end_at, position or tag.',
          errors: { body: ['The body must give at least one field to change: cid, date, start_at, end_at, position or tag.'] },
        });
      }
      expect((await ctx.request({ method: 'GET', url: '/api/bookings/2', token: read })).json()).toEqual(before);
      // A null tag is a change (it removes the tag), so it is an update like any other.
      const untag = await ctx.request({ method: 'PATCH', url: '/api/bookings/2', token: edit, payload: { tag: null } });
      expect(untag.statusCode).toBe(200);
      ctx.setNow(NOW);
    });

    it('is still 404 for an unknown booking and 401/403 without the right key', async () => {
      expect((await ctx.request({ method: 'PATCH', url: '/api/bookings/999', token: edit, payload: { tag: 1 } })).statusCode).toBe(404);
      expect((await ctx.request({ method: 'PATCH', url: '/api/bookings/2' })).statusCode).toBe(401);
      expect((await ctx.request({ method: 'PATCH', url: '/api/bookings/2', token: read })).statusCode).toBe(403);
    });
  });

  describe('the docs', () => {
    it('respond to a missing static file with 404, not 405', async () => {
      const res = await ctx.request({ method: 'GET', url: '/docs/static/nothing-here.js' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Route GET /docs/static/nothing-here.js not found' });
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect((await ctx.request({ method: 'HEAD', url: '/docs/static/nothing-here.js' })).statusCode).toBe(404);
    });

    it('still serve their files, and respond to another method there with 405', async () => {
      const page = await ctx.request({ method: 'GET', url: '/docs/' });
      const script = /src="\.\/static\/([^"]+\.js)"/.exec(page.body)?.[1];
      expect(script).toBeDefined();
      expect((await ctx.request({ method: 'GET', url: `/docs/static/${script}` })).statusCode).toBe(200);
      const put = await ctx.request({ method: 'PUT', url: '/docs/static/nothing-here.js' });
      expect(put.statusCode).toBe(405);
      expect(put.headers.allow).toMatch(/GET/);
    });
  });
});
