// The confirmation "My bookings" shows after a post/redirect/get (`?done=…&id=N`): it names the
// booking only when it is the member's own, so a hand-made address reveals nobody else's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, BO, buildBooking, buildDivision, buildPosition, buildUser } from '../../support/factories.js';
import { SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';

const NOW = Date.UTC(2030, 2, 10, 12, 0, 0);

describe('the confirmation on My bookings', () => {
  let ctx: TestContext;
  let ada: SignedIn;
  const notice = async (query: string) => {
    const res = await ctx.app.inject({ method: 'GET', url: `/my/bookings?${query}`, headers: { cookie: ada.cookie } });
    expect(res.statusCode).toBe(200);
    return /<p class="notice" role="status">([^<]*)<\/p>/.exec(res.body)?.[1] ?? null;
  };

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: { ...SIGN_IN_ENV, DIVISION: 'EUD' } });
    await ctx.load(
      buildDivision({
        users: [buildUser({ id: ADA, first_name: 'Ada' }), buildUser({ id: BO, first_name: 'Bo' })],
        positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP')],
        bookings: [
          buildBooking({ id: 60, user_id: ADA, callsign: 'EKCH_TWR', time_start: '2030-03-12 10:00:00', time_end: '2030-03-12 12:00:00' }),
          buildBooking({ id: 61, user_id: BO, callsign: 'EKCH_APP', time_start: '2030-03-13 08:00:00', time_end: '2030-03-13 09:30:00' }),
          buildBooking({
            id: 62,
            user_id: BO,
            callsign: 'EKCH_TWR',
            time_start: '2030-03-14 18:00:00',
            time_end: '2030-03-14 19:00:00',
            deleted: true,
          }),
        ],
      }),
    );
    ada = await signIn(ctx.app, ctx.services, buildUser({ id: ADA, first_name: 'Ada' }));
  });
  afterAll(async () => {
    await ctx.close();
  });

  it("names the member's own booking", async () => {
    expect(await notice('done=booked&id=60')).toBe('Booked: EKCH_TWR Tue 12 Mar 2030, 10:00–12:00 UTC.');
  });

  it("names no booking of another member, live or cancelled, in the confirmation (a hand-made ?done=…&id=N shows only the member's own)", async () => {
    for (const [query, done] of [
      ['done=booked&id=61', 'Booked.'],
      ['done=changed&id=61', 'Changed.'],
      ['done=cancelled&id=62', 'Cancelled.'],
    ] as const) {
      const shown = await notice(query);
      expect(shown, query).toBe(done);
    }
  });
});
