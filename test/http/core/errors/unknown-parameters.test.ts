// A query parameter a route does not take is refused (422, one entry per unknown parameter, naming
// the ones the route takes), never silently ignored: a misspelt filter must not return everything.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../support/context.js';
import { buildBooking, buildDivision, buildPosition } from '../../../support/factories.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);

describe('unknown query parameters', () => {
  let ctx: TestContext;
  let read: string;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(
      buildDivision({
        positions: [buildPosition('EKCH_DEL')],
        bookings: [
          buildBooking({ id: 1, callsign: 'EKCH_DEL', time_start: '2026-03-12 10:00:00', time_end: '2026-03-12 12:00:00' }),
          buildBooking({ id: 2, callsign: 'EKCH_DEL', time_start: '2026-03-13 10:00:00', time_end: '2026-03-13 12:00:00' }),
        ],
      }),
    );
    read = await ctx.key('read');
  });
  afterAll(() => ctx.close());

  it('refuses one on the bookings list, naming the parameters it takes', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/bookings?foo=bar' });
    expect(res.statusCode).toBe(422);
    const message = 'The foo parameter is unknown: this route takes from, to, callsign, cid, limit and cursor.';
    expect(res.json()).toEqual({ message, errors: { foo: [message] } });
  });

  it('names every unknown parameter, and refuses a misspelt filter on the calendar feed and the page', async () => {
    const list = await ctx.request({ method: 'GET', url: '/api/bookings?limit=1&Limit=2&foo[a]=1', token: read });
    expect(list.statusCode).toBe(422);
    expect(Object.keys(list.json().errors)).toEqual(['Limit', 'foo']);

    // Named like members of every object: still parameters, and unknown.
    const odd = await ctx.request({ method: 'GET', url: '/api/bookings?constructor=1&toString=x&__proto__=1' });
    expect(odd.statusCode).toBe(422);
    expect(Object.keys(odd.json().errors).sort()).toEqual(['__proto__', 'constructor', 'toString']);

    const feed = await ctx.request({ method: 'GET', url: '/calendar/bookings.ics?cid=1000001' });
    expect(feed.statusCode).toBe(422);
    expect(feed.json().errors).toEqual({ cid: ['The cid parameter is unknown: this route takes callsign and area.'] });

    const page = await ctx.request({ method: 'GET', url: '/?areas=Denmark' });
    expect(page.statusCode).toBe(422);
    // The page responds to a person: its form again, in HTML, with the message.
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<li>The areas parameter is unknown: this route takes callsign and area.</li>');
  });

  it('refuses any parameter on a route that takes none', async () => {
    for (const [url, token] of [
      ['/api/positions?callsign=EKCH_DEL', undefined],
      ['/api/bookings/1?form=full', undefined],
      ['/api/roles?x=1', read],
      ['/api/endorsements/examiner?area=Denmark', read],
    ] as const) {
      const res = await ctx.request({ method: 'GET', url, ...(token ? { token } : {}) });
      expect(res.statusCode, url).toBe(422);
      const [name] = Object.keys(res.json().errors);
      expect(res.json().errors[name!], url).toEqual([`The ${name} parameter is unknown: this route takes no query parameters.`]);
    }
  });

  it('takes every form of include on /api/users, and refuses what is not a parameter of it', async () => {
    for (const query of [
      'include[]=allUsers&include[]=name',
      'include[0]=allUsers',
      'include=allUsers&include=name',
      'include=allUsers,name',
    ]) {
      const res = await ctx.request({ method: 'GET', url: `/api/users?${query}&onlyAtcActive=0`, token: read });
      expect(res.statusCode, query).toBe(200);
    }
    const res = await ctx.request({ method: 'GET', url: '/api/users?include[]=allUsers&includes[]=name', token: read });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      includes: ['The includes parameter is unknown: this route takes include and onlyAtcActive.'],
    });
  });

  it('follows a cursor from the Link header, and returns 401 for a route that needs a key, before anything else', async () => {
    const first = await ctx.request({ method: 'GET', url: '/api/bookings?limit=1&from=2026-03-01' });
    expect(first.statusCode).toBe(200);
    const next = /<([^>]+)>/.exec(String(first.headers.link))?.[1];
    expect(next).toContain('cursor=');
    expect((await ctx.request({ method: 'GET', url: next! })).statusCode).toBe(200);

    expect((await ctx.request({ method: 'GET', url: '/api/users?foo=1' })).statusCode).toBe(401);
  });
});
