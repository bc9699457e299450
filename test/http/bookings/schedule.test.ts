// Which period a PATCH gives a booking: the stored start stays exactly (to the second) unless
// date or start_at is sent, and end_at alone places the end after that start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schedule } from '../../../src/features/bookings/domain/index.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildBooking, buildDivision, buildPosition, buildUser } from '../../support/factories.js';

// Pinned clock: 15 January 2026, 12:00 UTC.
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const ADA = 4000001;
const utc = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => Date.UTC(y, mo - 1, d, h, mi, s);

describe('PATCH of a booking’s times', () => {
  let ctx: TestContext;
  let edit: string;

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(
      buildDivision({
        users: [buildUser({ id: ADA })],
        positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_GND'), buildPosition('EKDK_CTR', { rating: 'S1' })],
        bookings: [
          // Imported, with seconds: ongoing, later today, and one lasting two days.
          buildBooking({ id: 1, user_id: ADA, callsign: 'EKCH_DEL', time_start: '2026-01-15 11:00:30', time_end: '2026-01-15 13:00:00' }),
          buildBooking({ id: 2, user_id: ADA, callsign: 'EKCH_GND', time_start: '2026-01-20 10:00:45', time_end: '2026-01-20 11:00:00' }),
          buildBooking({ id: 3, user_id: ADA, callsign: 'EKDK_CTR', time_start: '2026-03-01 10:00:00', time_end: '2026-03-03 10:00:00' }),
        ],
      }),
    );
    edit = await ctx.key('edit');
  });
  afterAll(() => ctx.close());

  const patch = (id: number, payload: Record<string, unknown>) =>
    ctx.request({ method: 'PATCH', url: `/api/bookings/${id}`, token: edit, payload });

  it('extends an ongoing imported booking whose start has seconds, keeping the start exactly', async () => {
    const res = await patch(1, { end_at: '14:00' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ time_start: '2026-01-15 11:00:30', time_end: '2026-01-15 14:00:00' });
  });

  it('changes only the end of a future imported booking whose start has seconds', async () => {
    const res = await patch(2, { end_at: '12:30' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ time_start: '2026-01-20 10:00:45', time_end: '2026-01-20 12:30:00' });
    // An end at or before the start's time of day crosses midnight (rule 3).
    const overnight = await patch(2, { end_at: '02:00' });
    expect(overnight.json().booking).toMatchObject({ time_start: '2026-01-20 10:00:45', time_end: '2026-01-21 02:00:00' });
  });

  it('keeps a two-day booking two days long when only its end time changes', async () => {
    const later = await patch(3, { end_at: '12:00' });
    expect(later.statusCode, later.body).toBe(200);
    expect(later.json().booking).toMatchObject({ time_start: '2026-03-01 10:00:00', time_end: '2026-03-03 12:00:00' });
    const earlier = await patch(3, { end_at: '10:00' });
    expect(earlier.json().booking).toMatchObject({ time_start: '2026-03-01 10:00:00', time_end: '2026-03-03 10:00:00' });
  });

  it('moves a two-day booking to another date whole', async () => {
    const res = await patch(3, { date: '10/3/2026' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ time_start: '2026-03-10 10:00:00', time_end: '2026-03-12 10:00:00' });
  });

  it('still reads an end before the start of an overnight booking as the next day, and after it as the same day', async () => {
    const created = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      payload: { cid: ADA, date: '1/2/2026', start_at: '22:00', end_at: '02:00', position: 'EKCH_DEL' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().booking.id as number;
    expect((await patch(id, { end_at: '03:00' })).json().booking).toMatchObject({
      time_start: '2026-02-01 22:00:00',
      time_end: '2026-02-02 03:00:00',
    });
    expect((await patch(id, { end_at: '23:00' })).json().booking).toMatchObject({
      time_start: '2026-02-01 22:00:00',
      time_end: '2026-02-01 23:00:00',
    });
    const same = await patch(id, { end_at: '22:00' });
    expect(same.statusCode).toBe(422);
    expect(same.json().errors).toEqual({ end_at: ['Start and end time cannot be the same'] });
  });
});

describe('schedule', () => {
  const stored = { start: utc(2026, 3, 1, 10, 0, 30), end: utc(2026, 3, 1, 12) };

  it('keeps the stored start to the second when only end_at is sent', () => {
    expect(schedule({ end_at: 13 * 60 }, stored)).toEqual({ start: stored.start, end: utc(2026, 3, 1, 13) });
  });

  it('drops the seconds only when a new start time is sent, and keeps them when only the date moves', () => {
    expect(schedule({ start_at: 9 * 60 }, stored)).toEqual({ start: utc(2026, 3, 1, 9), end: utc(2026, 3, 1, 12) });
    expect(schedule({ date: { year: 2026, month: 4, day: 2 } }, stored)).toEqual({
      start: utc(2026, 4, 2, 10, 0, 30),
      end: utc(2026, 4, 2, 12),
    });
  });

  it('places the end after the start plus the whole days the booking lasted', () => {
    const long = { start: utc(2026, 3, 1, 10), end: utc(2026, 3, 2, 18) };
    expect(schedule({ end_at: 20 * 60 }, long)).toEqual({ start: long.start, end: utc(2026, 3, 2, 20) });
    expect(schedule({ end_at: 8 * 60 }, long)).toEqual({ start: long.start, end: utc(2026, 3, 3, 8) });
    expect(schedule({ start_at: 12 * 60 }, long)).toEqual({ start: utc(2026, 3, 1, 12), end: utc(2026, 3, 2, 18) });
    expect(schedule({ start_at: 20 * 60 }, long)).toEqual({ start: utc(2026, 3, 1, 20), end: utc(2026, 3, 3, 18) });
  });

  it('refuses an end equal to the start of a booking shorter than a day', () => {
    expect(schedule({ end_at: 10 * 60 }, { start: utc(2026, 3, 1, 10), end: utc(2026, 3, 1, 11) })).toBeNull();
  });
});
