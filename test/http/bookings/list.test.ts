import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_KEYS, REDUCED_KEYS } from '../../support/booking-forms.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, BO, buildDivision, buildPosition, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

const CALLSIGNS = ['EKCH_TWR', 'EKCH_DEL', 'EKCH_APP'] as const;

interface Fixture {
  id: number;
  user_id: number;
  callsign: string;
  time_start: string;
  time_end: string;
  tag?: number | null;
  deleted?: boolean;
}

// 24 live bookings over four days on three positions; ids deliberately out of time order, and
// several bookings share a start time, so the id tie-break is visible.
const BOOKINGS: Fixture[] = [];
for (let i = 0; i < 24; i++) {
  const day = 1 + Math.floor(i / 6);
  const slot = i % 6;
  const callsign = CALLSIGNS[slot % 3]!;
  const [start, end] = slot < 3 ? ['08:00', '10:00'] : ['10:00', '12:00'];
  BOOKINGS.push({
    id: ((i * 7) % 24) + 1,
    user_id: i % 2 === 0 ? ADA : BO,
    callsign,
    time_start: `2026-02-0${day} ${start}:00`,
    time_end: `2026-02-0${day} ${end}:00`,
    tag: slot === 4 ? 3 : null,
  });
}
// A night booking crossing into 5 February, and a deleted one that must never be listed.
BOOKINGS.push({ id: 30, user_id: ADA, callsign: 'EKCH_APP', time_start: '2026-02-04 22:00:00', time_end: '2026-02-05 02:00:00' });
BOOKINGS.push({
  id: 31,
  user_id: BO,
  callsign: 'EKCH_APP',
  time_start: '2026-02-04 20:00:00',
  time_end: '2026-02-04 23:00:00',
  deleted: true,
});

const live = BOOKINGS.filter((b) => !b.deleted);
const expectedOrder = (rows: Fixture[]) =>
  [...rows].sort((a, b) => (a.time_start < b.time_start ? -1 : a.time_start > b.time_start ? 1 : a.id - b.id)).map((b) => b.id);

const nextLink = (link: string | string[] | undefined): string | null => {
  if (link === undefined) return null;
  const m = /^<([^>]+)>; rel="next"$/.exec(String(link));
  if (!m) throw new Error(`unexpected Link header ${String(link)}`);
  return m[1]!;
};

describe('GET /api/bookings and GET /api/bookings/{id}', () => {
  let ctx: TestContext;
  let read: string;

  const list = (url: string, token?: string) => ctx.request({ method: 'GET', url, token });
  const ids = async (url: string, token?: string) => {
    const res = await list(url, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().map((b: { id: number }) => b.id);
  };

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(
      buildDivision({
        users: [buildUser(), buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg', rating: 'S3' })],
        positions: CALLSIGNS.map((callsign) => buildPosition(callsign)),
        bookings: BOOKINGS,
      }),
    );
    read = await ctx.key('read');
  });
  afterAll(() => ctx.close());

  it('lists live bookings sorted by time_start, then id', async () => {
    expect(await ids('/api/bookings')).toEqual(expectedOrder(live));
    expect(await ids('/api/bookings', read)).toEqual(expectedOrder(live));
  });

  it('shows exactly the reduced fields without a key and the full fields with one', async () => {
    const reduced = (await list('/api/bookings')).json();
    const full = (await list('/api/bookings', read)).json();
    expect(reduced).toHaveLength(live.length);
    for (const [i, r] of reduced.entries()) {
      expect(Object.keys(r)).toEqual(REDUCED_KEYS);
      const f = full[i];
      expect(Object.keys(f)).toEqual(FULL_KEYS);
      expect(Object.fromEntries(REDUCED_KEYS.map((k) => [k, f[k]]))).toEqual(r);
    }
    const night = full.find((b: { id: number }) => b.id === 30);
    expect(night).toEqual({
      id: 30,
      source: 'CC',
      network_booking: null,
      callsign: 'EKCH_APP',
      position_id: expect.any(Number),
      name: 'Ada Lind',
      time_start: '2026-02-04 22:00:00',
      time_end: '2026-02-05 02:00:00',
      user_id: ADA,
      training: 0,
      event: 0,
      exam: 0,
      deleted: 0,
      created_at: '2026-01-15T12:00:00.000000Z',
      updated_at: '2026-01-15T12:00:00.000000Z',
    });
  });

  it('filters by an overlapping window: half-open, dates and date-times', async () => {
    const day4 = live.filter((b) => b.time_start.startsWith('2026-02-04')).map((b) => b.id);
    // A bare date as `to` covers that whole day; the night booking started on the 4th.
    expect((await ids('/api/bookings?from=2026-02-04&to=2026-02-04')).sort()).toEqual([...day4].sort());
    // Bookings ending exactly at `from` are out; the night booking running past midnight is in.
    expect(await ids('/api/bookings?from=2026-02-04T12:00:00Z')).toEqual(
      expectedOrder(live.filter((b) => b.time_end > '2026-02-04 12:00:00')),
    );
    expect(await ids('/api/bookings?from=2026-02-05T01:00:00Z&to=2026-02-05T05:00:00Z')).toEqual([30]);
    // Bookings starting exactly at `to` are out.
    expect(await ids('/api/bookings?to=2026-02-01T10:00:00Z')).toEqual(
      expectedOrder(live.filter((b) => b.time_start === '2026-02-01 08:00:00')),
    );
    // An offset is honoured (12:00+02:00 is 10:00 UTC).
    expect(await ids('/api/bookings?to=2026-02-01T12:00:00%2B02:00')).toEqual(
      expectedOrder(live.filter((b) => b.time_start === '2026-02-01 08:00:00')),
    );
  });

  it('filters by callsign (case-insensitive) and cid, combined with the window', async () => {
    expect(await ids('/api/bookings?callsign=ekch_app')).toEqual(expectedOrder(live.filter((b) => b.callsign === 'EKCH_APP')));
    // cid needs a key (docs/api.md).
    expect(await ids(`/api/bookings?cid=${BO}`, read)).toEqual(expectedOrder(live.filter((b) => b.user_id === BO)));
    expect(await ids(`/api/bookings?cid=${ADA}&callsign=EKCH_TWR&from=2026-02-02&to=2026-02-03`, read)).toEqual(
      expectedOrder(
        live.filter((b) => b.user_id === ADA && b.callsign === 'EKCH_TWR' && b.time_start >= '2026-02-02' && b.time_start < '2026-02-04'),
      ),
    );
    expect(await ids('/api/bookings?callsign=ESSA_TWR')).toEqual([]);
  });

  it('refuses bad filters with 422 naming each parameter', async () => {
    const cases: Array<[string, string[]]> = [
      ['from=1/2/2026', ['from']],
      ['from=2026-02-30&to=tomorrow', ['from', 'to']],
      ['from=2026-02-02&to=2026-02-01T00:00:00Z', ['to']],
      ['cid=abc', ['cid']],
      ['limit=0', ['limit']],
      ['limit=1001', ['limit']],
      ['limit=5&cursor=not-a-cursor', ['cursor']],
      // Control characters: no callsign has them, and PostgreSQL would refuse a NUL outright.
      ['callsign=EKCH%00TWR', ['callsign']],
      ['callsign=%1F', ['callsign']],
    ];
    for (const [query, fields] of cases) {
      // With a key: cid needs one (docs/api.md), and 401 would come before the 422.
      const res = await list(`/api/bookings?${query}`, read);
      expect(res.statusCode, query).toBe(422);
      expect(Object.keys(res.json().errors).sort(), query).toEqual(fields);
    }
  });

  it('pages with limit and a Link to the next page until every booking was seen once', async () => {
    for (const [start, token] of [
      ['/api/bookings?limit=4', undefined],
      ['/api/bookings?limit=1', read],
      ['/api/bookings?limit=5&callsign=EKCH_DEL&from=2026-02-02', read],
    ] as const) {
      const all = await ids(start.replace(/limit=\d+&?/, ''), token);
      const limit = Number(/limit=(\d+)/.exec(start)![1]);
      const seen: number[] = [];
      let url: string | null = start;
      let pages = 0;
      while (url !== null) {
        const res = await list(url, token);
        expect(res.statusCode).toBe(200);
        const page = res.json().map((b: { id: number }) => b.id);
        expect(page.length).toBeLessThanOrEqual(limit);
        seen.push(...page);
        url = nextLink(res.headers.link);
        if (url !== null) expect(page).toHaveLength(limit);
        expect(++pages).toBeLessThan(100);
      }
      expect(seen).toEqual(all);
      expect(new Set(seen).size).toBe(seen.length);
      expect(pages).toBe(Math.max(1, Math.ceil(all.length / limit)));
    }
  });

  it('sends no Link without limit or on a single last page', async () => {
    expect((await list('/api/bookings')).headers.link).toBeUndefined();
    const big = await list('/api/bookings?limit=1000');
    expect(big.headers.link).toBeUndefined();
    expect(big.json()).toHaveLength(live.length);
    const exact = await list(`/api/bookings?limit=${live.length}`);
    expect(exact.headers.link).toBeUndefined();
  });

  it('gets one booking by id in the form the key allows; unknown ids are 404', async () => {
    const reduced = await list('/api/bookings/30');
    expect(reduced.statusCode).toBe(200);
    expect(Object.keys(reduced.json())).toEqual(REDUCED_KEYS);
    const full = await list('/api/bookings/30', read);
    expect(Object.keys(full.json())).toEqual(FULL_KEYS);
    expect(full.json().name).toBe('Ada Lind');
    expect((await list('/api/bookings/999')).statusCode).toBe(404);
    expect((await list('/api/bookings/999')).json()).toEqual({ message: 'Booking not found' });
    // The deleted booking: visible with a key, not without.
    expect((await list('/api/bookings/31', read)).json()).toMatchObject({ id: 31, deleted: 1 });
    expect((await list('/api/bookings/31')).statusCode).toBe(404);
  });

  it('responds to an invalid key with 401 rather than the public form', async () => {
    const res = await list('/api/bookings', 'sector_0123456789abcdef_' + 'A'.repeat(43));
    expect(res.statusCode).toBe(401);
  });

  it('sends CORS and an ETag on the public list, and 304 for If-None-Match', async () => {
    const first = await ctx.request({ method: 'GET', url: '/api/bookings', headers: { origin: 'https://division.example' } });
    expect(first.headers['access-control-allow-origin']).toBe('*');
    const again = await ctx.request({ method: 'GET', url: '/api/bookings', headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
  });

  it('lists a booking created or deleted since the last request at once', async () => {
    const edit = await ctx.key('edit');
    const urls = ['/api/bookings', '/api/bookings?limit=3&callsign=EKCH_APP', '/api/bookings?from=2026-02-03'];
    const before = [];
    for (const token of [undefined, read]) for (const url of urls) before.push(await list(url, token));
    expect(before[1]!.headers.link).toMatch(/rel="next"/);
    expect(Object.keys(before[0]!.json()[0])).toEqual(REDUCED_KEYS);
    expect(Object.keys(before[3]!.json()[0])).toEqual(FULL_KEYS);

    const created = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      payload: { cid: BO, date: '3/2/2026', start_at: '06:00', end_at: '07:00', position: 'EKCH_APP' },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().booking.id;
    expect(await ids('/api/bookings')).toContain(id);
    expect(await ids('/api/bookings?from=2026-02-03', read)).toContain(id);

    expect((await ctx.request({ method: 'DELETE', url: `/api/bookings/${id}`, token: edit })).statusCode).toBe(200);
    expect(await ids('/api/bookings')).not.toContain(id);
  });

  it('documents the list filters, pagination header and write responses in OpenAPI', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json();
    const listOp = doc.paths['/api/bookings'].get;
    expect(listOp.parameters.map((p: { name: string }) => p.name).sort()).toEqual(['callsign', 'cid', 'cursor', 'from', 'limit', 'to']);
    expect(listOp.responses['200'].headers.link).toBeDefined();
    expect(Object.keys(listOp.responses)).toEqual(expect.arrayContaining(['200', '401', '422']));
    const createOp = doc.paths['/api/bookings/create'].post;
    expect(createOp.responses['201'].headers.location).toBeDefined();
    expect(Object.keys(createOp.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409', '422']));
    expect(Object.keys(createOp.requestBody.content['application/json'].schema.properties).sort()).toEqual([
      'cid',
      'date',
      'end_at',
      'position',
      'source',
      'start_at',
      'tag',
    ]);
    expect(createOp.requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
    const byId = doc.paths['/api/bookings/{id}'];
    expect(Object.keys(byId).sort()).toEqual(['delete', 'get', 'patch']);
    expect(Object.keys(byId.patch.requestBody.content['application/json'].schema.properties)).not.toContain('source');
    expect(Object.keys(byId.patch.responses)).toEqual(expect.arrayContaining(['200', '404', '409', '422']));
  });
});
