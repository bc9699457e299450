// A PATCH that changes nothing (contract §8): 200 with the booking as it is, and nothing caused —
// no event, no network push, no audit entry; updated_at and the revision (calendar SEQUENCE) stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, BO, buildDivision, buildPosition, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('PATCH /api/bookings/{id} that changes nothing', () => {
  let ctx: TestContext;
  let edit: string;

  const patch = (id: number, payload: Record<string, unknown>) =>
    ctx.request({ method: 'PATCH', url: `/api/bookings/${id}`, token: edit, payload });

  /** Everything a change causes (network pushes are owed from its events), and the row's own marks of a change. */
  async function traces(id: number) {
    const db = ctx.services.db.kysely;
    const row = await db.selectFrom('bookings').select(['updated_at', 'revision']).where('id', '=', id).executeTakeFirstOrThrow();
    const count = async (table: 'events' | 'audit_log') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const feed = (await ctx.request({ method: 'GET', url: '/calendar/bookings.ics' })).body;
    const sequence = new RegExp(`UID:booking-${id}@[^\\r]*\\r\\n(?:[^\\r]*\\r\\n)*?SEQUENCE:(\\d+)`).exec(feed)?.[1];
    return { row, events: await count('events'), audit: await count('audit_log'), sequence };
  }

  beforeAll(async () => {
    ctx = await createTestContext({
      now: NOW,
      // With sync on, a change's event is also owed to the network.
      env: { NETWORK_BOOKINGS_URL: 'http://127.0.0.1:9/api', NETWORK_BOOKINGS_KEY: 'test-key', NETWORK_RETRY_BASE_MS: '3600000' },
    });
    await ctx.load(
      buildDivision({
        users: [buildUser(), buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg', rating: 'S1' })],
        positions: [buildPosition('EKCH_APP'), buildPosition('EKCH_DEL')],
      }),
    );
    edit = await ctx.key('edit');
  });
  afterAll(() => ctx.close());

  async function book(payload: Record<string, unknown>) {
    const res = await ctx.request({ method: 'POST', url: '/api/bookings/create', token: edit, payload });
    expect(res.statusCode, res.body).toBe(201);
    // Later writes happen at a later time: a moved updated_at would show.
    ctx.setNow(NOW + 60_000);
    return res.json().booking;
  }

  it('every field given as stored, spelt differently: 200 with the booking as it is, nothing caused', async () => {
    ctx.setNow(NOW);
    const booking = await book({ cid: ADA, date: '2/3/2026', start_at: '9:00', end_at: '11:00', position: 'EKCH_APP', tag: 2 });
    const before = await traces(booking.id);
    expect(before.sequence).toBe('0');

    const res = await patch(booking.id, {
      cid: String(ADA),
      position: 'ekch_app',
      date: '02/03/2026',
      start_at: '09:00',
      end_at: '11:00',
      tag: 2,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: 'Booking updated', booking });
    expect(await traces(booking.id)).toEqual(before);

    // A form body with one field as stored changes nothing either.
    const form = await ctx.request({
      method: 'PATCH',
      url: `/api/bookings/${booking.id}`,
      token: edit,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'end_at=11%3A00',
    });
    expect(form.statusCode).toBe(200);
    expect(await traces(booking.id)).toEqual(before);
  });

  it('a tag the forced training already shows changes nothing', async () => {
    ctx.setNow(NOW);
    const forced = await book({ cid: BO, date: '3/3/2026', start_at: '10:00', end_at: '11:00', position: 'EKCH_APP' });
    expect(forced.training).toBe(1);
    const before = await traces(forced.id);
    for (const tag of [1, null]) {
      const res = await patch(forced.id, { tag, cid: BO });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: 'Booking updated', booking: forced, tag: 'Training' });
      expect(await traces(forced.id)).toEqual(before);
    }
  });

  it('a field that does change still publishes, pushes, audits and stamps', async () => {
    ctx.setNow(NOW);
    const booking = await book({ cid: ADA, date: '4/3/2026', start_at: '10:00', end_at: '11:00', position: 'EKCH_DEL' });
    const before = await traces(booking.id);
    const res = await patch(booking.id, { position: 'EKCH_DEL', end_at: '11:30' });
    expect(res.statusCode).toBe(200);
    const after = await traces(booking.id);
    expect(after.events).toBe(before.events + 1);
    expect(after.audit).toBe(before.audit + 1);
    expect(after.row.revision).toBe(before.row.revision + 1);
    expect(after.row.updated_at).toBeGreaterThan(before.row.updated_at);
    expect(after.sequence).toBe('1');
  });
});
