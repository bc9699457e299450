// Staff changing another member's booking on the pages (contract §14, "Who may book"): staff
// rights count in the area of the position the booking is on and in the area of the one it is
// moved to, and the new position must be one the booking's member may book.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { tableRows } from '../../support/db-state.js';
import { BO, buildBooking, buildPosition, buildRole, buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';

const NOW = Date.UTC(2030, 2, 10, 12, 0, 0);
const member = (id: number, first: string, rating: string, areas: string[]) =>
  buildUser({
    id,
    first_name: first,
    last_name: 'Test',
    rating,
    division: 'EUD',
    atc_active_areas: Object.fromEntries(areas.map((a) => [a, true])),
  });

const USERS = {
  bo: member(BO, 'Bo', 'S2', ['Denmark']), // books in Denmark only, up to S2
  mo: member(1000011, 'Mo', 'S3', ['Denmark', 'Sweden']), // Moderator of Denmark; may book Swedish positions for themself
  sam: member(1000012, 'Sam', 'S1', []), // Administrator of Denmark and of Sweden
};

describe("staff moving another member's booking", () => {
  let ctx: TestContext;
  const session: Partial<Record<keyof typeof USERS, SignedIn>> = {};

  /** Posts the edit form of booking 80 as the staff member, with the fields given. */
  async function move(who: 'mo' | 'sam', position: string) {
    const form = await ctx.app.inject({ method: 'GET', url: '/bookings/80/edit', headers: { cookie: session[who]!.cookie } });
    expect(form.statusCode).toBe(200);
    const fields = { _csrf: csrfOf(form.body), position, date: '2030-03-12', start_at: '10:00', end_at: '12:00', tag: '' };
    return postForm(ctx.app, '/bookings/80', fields, session[who]!.cookie);
  }
  const bookings = () => tableRows(ctx.databaseUrl, ['bookings', 'events', 'audit_log']);

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: { ...SIGN_IN_ENV, DIVISION: 'EUD' } });
    await ctx.load({
      areas: ['Denmark', 'Sweden'],
      users: Object.values(USERS),
      positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_TWR'), buildPosition('EKCH_APP'), buildPosition('ESSA_TWR')],
      roles: [
        buildRole({ user_id: USERS.mo.id, area: 'Denmark', role: 'Moderator' }),
        buildRole({ user_id: USERS.sam.id, area: 'Denmark', role: 'Administrator' }),
        buildRole({ user_id: USERS.sam.id, area: 'Sweden', role: 'Administrator' }),
      ],
      bookings: [
        buildBooking({ id: 80, user_id: BO, callsign: 'EKCH_TWR', time_start: '2030-03-12 10:00:00', time_end: '2030-03-12 12:00:00' }),
      ],
    });
    for (const [who, user] of Object.entries(USERS)) session[who as keyof typeof USERS] = await signIn(ctx.app, ctx.services, user);
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("refuses (403) staff of one area moving another member's booking into another area's position, changing nothing", async () => {
    const before = await bookings();
    const res = await move('mo', 'ESSA_TWR');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('You are not staff of the area of ESSA_TWR, so you may not put another member’s booking there.');
    expect(await bookings()).toEqual(before);
  });

  it("refuses (403) staff moving another member's booking to a position that member may not book, changing nothing", async () => {
    const before = await bookings();
    for (const position of ['ESSA_TWR', 'EKCH_APP']) {
      const res = await move('sam', position);
      expect(res.statusCode, position).toBe(403);
      expect(res.body, position).toContain(`The member whose booking this is may not book ${position}, so it cannot be put there.`);
    }
    expect(await bookings()).toEqual(before);
  });

  it("lets staff move another member's booking to a position of their area that member may book", async () => {
    const res = await move('sam', 'EKCH_DEL');
    expect(res.statusCode).toBe(303);
    const stored = (await ctx.request({ method: 'GET', url: '/api/bookings/80', token: await ctx.key('read') })).json();
    expect(stored).toEqual(expect.objectContaining({ user_id: BO, callsign: 'EKCH_DEL' }));
    // Still a booking the staff member can open.
    const again = await ctx.app.inject({ method: 'GET', url: '/bookings/80/edit', headers: { cookie: session.mo!.cookie } });
    expect(again.statusCode).toBe(200);
  });
});
