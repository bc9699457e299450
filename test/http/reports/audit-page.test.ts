// The audit log on a page (contract §25), on both databases: division-wide Administrators only, 100 a
// page newest first, filtered by booking, actor and time, a filter it cannot read shown beside its
// field (422), and hostile values escaped as `npx sector audit` escapes them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';
import { ADMIN, buildStaffDivision, MENTOR, MOD, PLAIN, STAFF_USERS } from '../../support/staff-division.js';

const NOW = Date.UTC(2030, 5, 15, 12);
const HOUR = 3_600_000;

describe('the audit page', () => {
  let ctx: TestContext;
  const as: Record<string, SignedIn> = {};
  const get = (who: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie: as[who]!.cookie } });
  /** The rows' times and targets, in the page's order. */
  const rows = (body: string) =>
    [...body.matchAll(/<tr><th scope="row">([^<]*)<\/th><td>([^<]*)<\/td><td>([^<]*)<\/td><td>([^<]*)<\/td>/g)].map((m) => ({
      at: m[1]!,
      actor: m[2]!,
      target: m[4]!,
    }));

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: SIGN_IN_ENV });
    await ctx.load(buildStaffDivision());
    for (const [name, id] of Object.entries({ ADMIN, MOD, MENTOR, PLAIN }))
      as[name] = await signIn(
        ctx.app,
        ctx.services,
        STAFF_USERS.find((u) => u.id === id)!,
      );
    // 250 entries an hour apart, newest at NOW - 1 h: bookings 1..250, every fifth by a member, one hostile.
    await ctx.services.db.kysely.deleteFrom('audit_log').execute();
    await ctx.services.db.kysely
      .insertInto('audit_log')
      .values(
        Array.from({ length: 250 }, (_, i) => ({
          at: NOW - (250 - i) * HOUR,
          actor: i % 5 === 0 ? `member:${MOD}` : 'key:k1',
          actor_name: i % 5 === 0 ? 'Mona Madsen' : i === 7 ? 'evil\u202e\u001b[31m<b>' : 'Booking bot',
          action: 'booking.updated',
          target: `booking:${i + 1}`,
          before: JSON.stringify({ callsign: 'EKCH_TWR' }),
          after: JSON.stringify({ callsign: 'EKCH_APP' }),
        })),
      )
      .execute();
  });
  afterAll(() => ctx.close());

  it('is for division-wide Administrators only', async () => {
    for (const who of ['MOD', 'MENTOR']) {
      const res = await get(who, '/staff/audit?actor=nobody');
      expect(res.statusCode, who).toBe(403);
      expect(res.body).toContain('Administrators of the whole division only');
      expect(res.body).not.toContain('Give a CID');
    }
    expect((await get('PLAIN', '/staff/audit')).statusCode).toBe(403);
    expect((await ctx.app.inject({ method: 'GET', url: '/staff/audit' })).statusCode).toBe(303);
  });

  it('shows 100 a page, newest first, with links to older and newer pages', async () => {
    const first = await get('ADMIN', '/staff/audit');
    expect(first.statusCode).toBe(200);
    const page1 = rows(first.body);
    expect(page1).toHaveLength(100);
    expect(page1[0]!.target).toBe('booking:250');
    expect(page1[0]!.at).toBe('2030-06-15 11:00:00');
    expect(page1[99]!.target).toBe('booking:151');
    expect(first.body).toContain('href="/staff/audit?page=2" rel="next"');
    expect(first.body).not.toContain('rel="prev"');
    const third = await get('ADMIN', '/staff/audit?page=3');
    expect(rows(third.body).map((r) => r.target)).toEqual(Array.from({ length: 50 }, (_, i) => `booking:${50 - i}`));
    expect(third.body).toContain('href="/staff/audit?page=2" rel="prev"');
    expect(third.body).not.toContain('rel="next"');
    expect((await get('ADMIN', '/staff/audit?page=0')).statusCode).toBe(404);
  });

  it('filters by booking, actor and days, and keeps the filter in the page links', async () => {
    expect(rows((await get('ADMIN', '/staff/audit?booking=42')).body).map((r) => r.target)).toEqual(['booking:42']);
    const byMod = rows((await get('ADMIN', `/staff/audit?actor=${MOD}`)).body);
    expect(byMod).toHaveLength(50);
    expect(byMod.every((r) => r.actor === `Mona Madsen (${MOD})`)).toBe(true);
    expect(rows((await get('ADMIN', `/staff/audit?actor=member:${MOD}&booking=246`)).body)).toHaveLength(1);
    // Entries 1..250 are at NOW - 250 h .. NOW - 1 h: 15 June holds those of 00:00 to 11:00, 12 of them.
    const day = rows((await get('ADMIN', '/staff/audit?from=2030-06-15&to=2030-06-15')).body);
    expect(day.map((r) => r.at.slice(0, 10))).toEqual(Array(day.length).fill('2030-06-15'));
    expect(day).toHaveLength(12);
    const keyed = await get('ADMIN', '/staff/audit?actor=key:k1');
    expect(rows(keyed.body)).toHaveLength(100);
    expect(keyed.body).toContain('href="/staff/audit?actor=key%3Ak1&amp;page=2" rel="next"');
  });

  it('shows a filter it cannot read beside its field (422), and escapes hostile values as the CLI does', async () => {
    const bad = await get('ADMIN', '/staff/audit?booking=abc&from=yesterday&actor=someone');
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="f-booking-error">Give a booking id');
    expect(bad.body).toContain('id="f-from-error">Give a day as YYYY-MM-DD.');
    expect(bad.body).toContain('id="f-actor-error">Give a CID');
    expect(rows(bad.body)).toHaveLength(0);
    const hostile = rows((await get('ADMIN', '/staff/audit?booking=8')).body)[0]!;
    expect(hostile.actor).toBe('key:k1 (evil\\u202e\\u001b[31m&lt;b&gt;)');
  });
});
