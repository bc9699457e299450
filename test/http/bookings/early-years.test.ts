// Years 0000–0099 are years like any other: Date.UTC would read them as 1900–1999.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDayMonthYear, parseWindowBound, periodOn } from '../../../src/features/bookings/domain/index.js';
import { parseIsoInstant, parseYmdHis, utcFromFields, ymdHis } from '../../../src/core/domain/time.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildBooking, buildDivision, buildPosition, buildUser } from '../../support/factories.js';

/** Epoch ms of a UTC time in any year from 0 on, computed without Date.UTC. */
function at(year: number, month: number, day: number, h = 0, mi = 0, s = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(h, mi, s, 0);
  return d.getTime();
}

describe('parsers, for years 0000–0099', () => {
  it('read the year as written', () => {
    expect(utcFromFields(50, 1, 1)).toBe(at(50, 1, 1));
    expect(utcFromFields(0, 2, 29, 12, 30, 15)).toBe(at(0, 2, 29, 12, 30, 15));
    expect(parseIsoInstant('0050-06-01T10:00:00Z')).toBe(at(50, 6, 1, 10));
    expect(parseYmdHis('0050-06-01 10:00:00')).toBe(at(50, 6, 1, 10));
    expect(parseYmdHis('0000-01-01 00:00:00')).toBe(at(0, 1, 1));
    expect(parseDayMonthYear('1/6/0050')).toEqual({ year: 50, month: 6, day: 1 });
    expect(periodOn({ year: 50, month: 6, day: 1 }, 22 * 60, 60)).toEqual({ start: at(50, 6, 1, 22), end: at(50, 6, 2, 1) });
    expect(parseWindowBound('0099-12-31', 'from')).toBe(at(99, 12, 31));
    expect(parseWindowBound('0099-12-31', 'to')).toBe(at(100, 1, 1));
    expect(parseWindowBound('0099-12-31T23:00:00+01:00', 'from')).toBe(at(99, 12, 31, 22));
  });

  it('still refuse dates that do not exist in those years', () => {
    // Year 0 is a leap year (proleptic Gregorian); 100 is not, 4 is.
    expect(utcFromFields(100, 2, 29)).toBeNull();
    expect(utcFromFields(1, 2, 29)).toBeNull();
    expect(utcFromFields(4, 2, 29)).toBe(at(4, 2, 29));
    expect(parseYmdHis('0001-02-29 00:00:00')).toBeNull();
    expect(parseDayMonthYear('29/2/0001')).toBeNull();
    expect(parseWindowBound('0001-02-29', 'from')).toBeNull();
    expect(parseIsoInstant('0001-02-29T00:00:00Z')).toBeNull();
  });

  it('round-trip every booking time they print, from year 0 on', () => {
    fc.assert(
      fc.property(fc.integer({ min: at(0, 1, 1) / 1000, max: at(9999, 12, 31, 23, 59, 59) / 1000 }), (seconds) => {
        const ms = seconds * 1000;
        expect(parseYmdHis(ymdHis(ms))).toBe(ms);
      }),
    );
  });
});

describe('early years through the interfaces', () => {
  let ctx: TestContext;
  let read: string;
  beforeAll(async () => {
    ctx = await createTestContext();
    await ctx.load(
      buildDivision({
        users: [buildUser({ id: 5000001 })],
        positions: [buildPosition('EKCH_DEL')],
        bookings: [
          buildBooking({
            id: 50,
            user_id: 5000001,
            callsign: 'EKCH_DEL',
            time_start: '0050-06-01 10:00:00',
            time_end: '0050-06-01 11:00:00',
          }),
        ],
      }),
    );
    read = await ctx.key('read');
  });
  afterAll(() => ctx.close());

  it('imports a booking in year 50 and lists it for a window in year 50', async () => {
    const res = await ctx.request({ method: 'GET', url: '/api/bookings?from=0050-06-01&to=0050-06-01', token: read });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual([expect.objectContaining({ id: 50, time_start: '0050-06-01 10:00:00', time_end: '0050-06-01 11:00:00' })]);
    // The same window in 1950 holds nothing.
    expect((await ctx.request({ method: 'GET', url: '/api/bookings?from=1950-06-01&to=1950-06-01', token: read })).json()).toEqual([]);
  });

  it('reads a d/m/Y date in year 50 as a real date (then refuses it as past)', async () => {
    const edit = await ctx.key('edit');
    const res = await ctx.request({ method: 'PATCH', url: '/api/bookings/50', token: edit, payload: { date: '2/6/0050' } });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ start_at: ['Start time cannot be in the past'] });
  });
});
