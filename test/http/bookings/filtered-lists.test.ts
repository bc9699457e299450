// Filtered bookings lists: every filter, paged or not, returns exactly the bookings the database's
// own filtering gives, each list one query of its window.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookingListBody } from '../../../src/features/bookings/bookings.view.js';
import type { BookingListFilter } from '../../../src/features/bookings/bookings.repository.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildDivision, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const HOUR = 3_600_000;
const CALLSIGNS = ['EKCH_TWR', 'EKCH_DEL', 'EKCH_APP', 'ESSA_CTR'];
const USERS = [1000001, 1000002, 1000003];

const pad = (n: number) => String(n).padStart(2, '0');
const sqlTime = (ms: number) => {
  const d = new Date(ms);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:00`;
};

// 240 bookings over ten days on four positions, 30 minutes to 3 hours long, starting on the
// hour or half past: lengths differ, so list order by start is not order by end, and several
// positions share a start (the id decides their order).
const BOOKINGS = Array.from({ length: 240 }, (_, i) => {
  const position = i % CALLSIGNS.length;
  const start = NOW + Math.floor(i / CALLSIGNS.length) * 4 * HOUR + (i % 3) * 30 * 60_000;
  const length = (1 + ((i * 7) % 18)) * 30 * 60_000;
  return {
    user_id: USERS[(i * 5) % USERS.length]!,
    callsign: CALLSIGNS[position]!,
    time_start: sqlTime(start),
    time_end: sqlTime(start + Math.min(length, 3 * HOUR)),
  };
});
const FIRST = NOW;
const LAST = NOW + 61 * 4 * HOUR;

const nextLink = (link: unknown): string | null => (link === undefined ? null : /^<([^>]+)>; rel="next"$/.exec(link as string)![1]!);

describe('filtered bookings lists', () => {
  let ctx: TestContext;
  let read: string;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW - 24 * HOUR });
    await ctx.load(
      buildDivision({
        users: USERS.map((id, i) => buildUser({ id, first_name: ['Ada', 'Bø', 'Çem'][i] })),
        positions: CALLSIGNS.map((callsign, i) => ({
          callsign,
          name: `Position ${i}`,
          frequency: `12${i}.105`,
          area: 'Denmark',
          rating: 'S1',
        })),
        bookings: BOOKINGS,
      }),
    );
    read = await ctx.key('read');
  });
  afterAll(() => ctx.close());

  interface Query {
    from?: number;
    to?: number;
    callsign?: string;
    cid?: number;
    limit?: number;
  }
  const instant = fc.integer({ min: FIRST - 6 * HOUR, max: LAST + 6 * HOUR }).map((ms) => ms - (ms % 60_000) + (ms % 7) * 1000);
  const queries = fc.record(
    {
      from: instant,
      to: instant,
      callsign: fc.constantFrom(...CALLSIGNS, 'ekch_twr', 'LFPG_TWR'),
      cid: fc.constantFrom(...USERS, 1234567),
      limit: fc.integer({ min: 1, max: 40 }),
    },
    { requiredKeys: [] },
  );

  const urlOf = (q: Query) => {
    const params = new URLSearchParams();
    if (q.from !== undefined) params.set('from', new Date(q.from).toISOString());
    if (q.to !== undefined) params.set('to', new Date(q.to).toISOString());
    if (q.callsign !== undefined) params.set('callsign', q.callsign);
    if (q.cid !== undefined) params.set('cid', String(q.cid));
    if (q.limit !== undefined) params.set('limit', String(q.limit));
    return `/api/bookings?${params.toString()}`;
  };

  /** What the database's own filtering returns, in the form the key gives. */
  async function fromDatabase(q: Query, keyed: boolean): Promise<unknown[]> {
    const filter: BookingListFilter = {};
    if (q.from !== undefined) filter.from = q.from;
    if (q.to !== undefined) filter.to = q.to;
    if (q.callsign !== undefined) filter.callsign = q.callsign.toUpperCase();
    if (q.cid !== undefined) filter.cid = q.cid;
    return bookingListBody(await ctx.services.repos.bookings.list(filter), keyed ? 'full' : 'reduced');
  }

  /** Every page of the list, following the Link headers. */
  async function allPages(url: string, token: string | undefined): Promise<unknown[]> {
    const seen: unknown[] = [];
    for (let next: string | null = url, pages = 0; next !== null; pages++) {
      const res = await ctx.request({ method: 'GET', url: next, token });
      expect(res.statusCode, `${next}: ${res.body}`).toBe(200);
      seen.push(...res.json());
      next = nextLink(res.headers.link);
      expect(pages).toBeLessThan(300);
    }
    return seen;
  }

  async function checkAgainstDatabase(q: Query) {
    if (q.from !== undefined && q.to !== undefined && q.to <= q.from) return;
    for (const keyed of [false, true]) {
      if (q.cid !== undefined && !keyed) continue;
      const token = keyed ? read : undefined;
      const expected = await fromDatabase(q, keyed);
      const url = urlOf(q);
      if (q.limit === undefined) {
        const res = await ctx.request({ method: 'GET', url, token });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers.link, url).toBeUndefined();
        expect(res.json(), url).toEqual(expected);
      } else {
        expect(await allPages(url, token), url).toEqual(expected);
      }
    }
  }

  it('responds to every filter exactly as the database filters, both forms, paged or not', async () => {
    await fc.assert(fc.asyncProperty(queries, checkAgainstDatabase), { numRuns: 150 });
  });

  it('gives a filtered list an ETag that 304s while it holds and changes with the data', async () => {
    const url = `/api/bookings?from=${new Date(FIRST + 24 * HOUR).toISOString()}&to=${new Date(FIRST + 48 * HOUR).toISOString()}&callsign=EKCH_TWR`;
    const first = await ctx.request({ method: 'GET', url });
    expect(first.headers.etag).toMatch(/^"[^"]+"$/);
    const again = await ctx.request({ method: 'GET', url, headers: { 'if-none-match': first.headers.etag as string } });
    expect(again.statusCode).toBe(304);
    // Another filter with other bookings has another ETag.
    const other = await ctx.request({ method: 'GET', url: url.replace('EKCH_TWR', 'EKCH_DEL') });
    expect(other.headers.etag).not.toBe(first.headers.etag);

    const id = (first.json() as Array<{ id: number }>)[0]!.id;
    const edit = await ctx.key('edit');
    expect((await ctx.request({ method: 'PATCH', url: `/api/bookings/${id}`, token: edit, payload: { tag: 3 } })).statusCode).toBe(200);
    const changed = await ctx.request({ method: 'GET', url, headers: { 'if-none-match': first.headers.etag as string } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
    expect((changed.json() as Array<{ id: number; event: number }>).find((b) => b.id === id)?.event).toBe(1);
  });

  it('wraps a filtered list in {"data"} for Control Center clients', async () => {
    const compat = await ctx.key('read', { compat: 'controlcenter' });
    const url = `/api/bookings?callsign=EKCH_APP&limit=5`;
    const plain = await ctx.request({ method: 'GET', url, token: read });
    const wrapped = await ctx.request({ method: 'GET', url, token: compat });
    expect(wrapped.json()).toEqual({ data: plain.json() });
    expect(wrapped.headers.link).toBe(plain.headers.link);
    expect(wrapped.headers.etag).not.toBe(plain.headers.etag);
  });

  it('queries only the window of a filtered list, in one statement', async () => {
    ctx.resetQueries();
    const from = new Date(FIRST + 200 * HOUR).toISOString();
    const res = await ctx.request({ method: 'GET', url: `/api/bookings?from=${from}` });
    expect(res.statusCode).toBe(200);
    expect(res.json().length).toBeLessThan(BOOKINGS.length / 2);
    const listed = ctx.statements().filter((s) => /\bbookings\b/.test(s));
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatch(/"time_end" > /);
  });
});
