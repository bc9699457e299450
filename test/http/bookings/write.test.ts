import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_KEYS, REDUCED_KEYS } from '../../support/booking-forms.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import {
  ADA,
  BO,
  buildBooking,
  buildDivision,
  buildEndorsement,
  buildPosition,
  buildUser,
  type EndorsementRecord,
} from '../../support/factories.js';

// Pinned clock: 15 January 2026, 12:00 UTC.
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const NOW_ISO = '2026-01-15T12:00:00.000000Z';

// ADA (C1) holds an active facility endorsement for EKCH_TWR; BO (S1) is below EKCH_TWR (S2) and EKCH_APP (S3).
const CY = 1000003; // C1, facility endorsement expired
const DI = 1000004; // C1, facility endorsement revoked
const ED = 1000005; // C1, facility endorsement valid only from June
const FA = 1000006; // C1, only a solo endorsement for EKCH_TWR
const GU = 1000007; // C1, facility endorsement valid until 2027

const user = (id: number, first: string, last: string, rating: string) =>
  buildUser({ id, first_name: first, last_name: last, email: `${first.toLowerCase()}@example.org`, rating });
const facility = (user_id: number, extra: Partial<EndorsementRecord> = {}) => buildEndorsement({ user_id, ...extra });

const DATA = buildDivision({
  users: [
    user(ADA, 'Ada', 'Lind', 'C1'),
    user(BO, 'Bo', 'Berg', 'S1'),
    user(CY, 'Cy', 'Dahl', 'C1'),
    user(DI, 'Di', 'Eng', 'C1'),
    user(ED, 'Ed', 'Falk', 'C1'),
    user(FA, 'Fa', 'Gren', 'C1'),
    user(GU, 'Gu', 'Holm', 'C1'),
  ],
  positions: [buildPosition('EKCH_TWR', { required_facility: 'T1 EKCH TWR' }), buildPosition('EKCH_DEL'), buildPosition('EKCH_APP')],
  endorsements: [
    facility(ADA),
    facility(CY, { valid_to: '2026-01-01T00:00:00Z' }),
    facility(DI, { revoked: true }),
    facility(ED, { valid_from: '2026-06-01T00:00:00Z' }),
    { user_id: FA, type: 'solo', positions: ['EKCH_TWR'], valid_from: '2025-01-01T00:00:00Z', valid_to: null },
    facility(GU, { valid_to: '2027-01-01T00:00:00Z' }),
  ],
});

// Every test books on its own day (from 1 March 2026), so tests never collide.
let dayIndex = 0;
function nextDay(): { dmy: string; ymd: string } {
  const d = new Date(Date.UTC(2026, 2, 1) + dayIndex++ * 86_400_000);
  return { dmy: `${d.getUTCDate()}/${d.getUTCMonth() + 1}/${d.getUTCFullYear()}`, ymd: d.toISOString().slice(0, 10) };
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

describe('bookings: create, update, delete', () => {
  let ctx: TestContext;
  let edit: string;
  let read: string;
  let positionId: Record<string, number>;

  // token null: no Authorization header at all.
  const create = (payload: Record<string, unknown>, token: string | null = edit) =>
    ctx.request({ method: 'POST', url: '/api/bookings/create', token: token ?? undefined, payload });
  const createForm = (fields: Record<string, string>) =>
    ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      headers: FORM,
      payload: new URLSearchParams(fields).toString(),
    });
  const patch = (id: number, payload: Record<string, unknown>, token: string | null = edit) =>
    ctx.request({ method: 'PATCH', url: `/api/bookings/${id}`, token: token ?? undefined, payload });
  const del = (id: number, token: string | null = edit) =>
    ctx.request({ method: 'DELETE', url: `/api/bookings/${id}`, token: token ?? undefined });
  const get = (id: number, token?: string) => ctx.request({ method: 'GET', url: `/api/bookings/${id}`, token });
  const listIds = async () =>
    (await ctx.request({ method: 'GET', url: '/api/bookings', token: read })).json().map((b: { id: number }) => b.id);

  /** Creates a booking that must succeed and returns its full form. */
  async function book(fields: Record<string, unknown>) {
    const res = await create(fields);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().booking;
  }

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(DATA);
    edit = await ctx.key('edit');
    read = await ctx.key('read');
    const positions = await ctx.services.db.kysely.selectFrom('positions').select(['id', 'callsign']).execute();
    positionId = Object.fromEntries(positions.map((p) => [p.callsign, p.id]));
  });
  afterAll(() => ctx.close());

  describe('POST /api/bookings/create', () => {
    it('creates a booking from JSON: 201, the full form without an ETag, and a Location that serves it', async () => {
      const day = nextDay();
      const res = await create({ cid: ADA, date: day.dmy, start_at: '10:00', end_at: '12:00', position: 'EKCH_TWR' });
      expect(res.statusCode).toBe(201);
      const body = res.json();
      expect(body).toEqual({
        message: 'Booking created',
        booking: {
          id: expect.any(Number),
          source: 'CC',
          network_booking: null,
          callsign: 'EKCH_TWR',
          position_id: positionId.EKCH_TWR,
          name: 'Ada Lind',
          time_start: `${day.ymd} 10:00:00`,
          time_end: `${day.ymd} 12:00:00`,
          user_id: ADA,
          training: 0,
          event: 0,
          exam: 0,
          deleted: 0,
          created_at: NOW_ISO,
          updated_at: NOW_ISO,
        },
      });
      expect(Object.keys(body)).toEqual(['message', 'booking']);
      expect(Object.keys(body.booking)).toEqual(FULL_KEYS);
      expect(res.headers.location).toBe(`/api/bookings/${body.booking.id}`);
      // A write's response is not a representation to revalidate: no ETag (the read has one).
      expect(res.headers.etag).toBeUndefined();

      const again = await ctx.request({ method: 'GET', url: res.headers.location, token: read });
      expect(again.json()).toEqual(body.booking);
      expect(again.headers.etag).toMatch(/^"[\w-]+"$/);
      expect(await listIds()).toContain(body.booking.id);
    });

    it('creates a booking from a form, where cid and tag arrive as digit strings', async () => {
      const day = nextDay();
      const res = await createForm({
        cid: String(ADA),
        date: day.dmy,
        start_at: '8:00',
        end_at: '9:30',
        position: 'ekch_del',
        tag: '3',
        source: 'discord',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().booking).toMatchObject({
        callsign: 'EKCH_DEL',
        user_id: ADA,
        time_start: `${day.ymd} 08:00:00`,
        time_end: `${day.ymd} 09:30:00`,
        event: 1,
        training: 0,
        exam: 0,
        source: 'DISCORD',
      });
    });

    it('reads 1/2/2026 and 01/02/2026, 9:00 and 09:00 as the same slot', async () => {
      const first = await book({ cid: ADA, date: '1/2/2026', start_at: '9:00', end_at: '10:00', position: 'EKCH_DEL' });
      const second = await create({ cid: ADA, date: '01/02/2026', start_at: '09:00', end_at: '10:00', position: 'EKCH_DEL' });
      expect(first.time_start).toBe('2026-02-01 09:00:00');
      expect(second.statusCode).toBe(409);
      expect(second.json().conflicts).toEqual([first.id]);
    });

    it('reports every field-format error together (JSON)', async () => {
      const res = await create({
        cid: 'abc',
        date: '30/02/2026',
        start_at: '24:00',
        end_at: '9:5',
        position: 5,
        tag: 4,
        source: 'not valid!',
      });
      expect(res.statusCode).toBe(422);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['errors', 'message']);
      expect(Object.keys(body.errors).sort()).toEqual(['cid', 'date', 'end_at', 'position', 'source', 'start_at', 'tag']);
      for (const messages of Object.values(body.errors)) expect(messages).toEqual([expect.any(String)]);
      expect(body.message).toMatch(/and 6 more errors/);
    });

    it('reports every field-format error together (form)', async () => {
      const res = await createForm({ cid: '12x', date: '2026-03-01', start_at: '25:00', end_at: '10:00', position: 'EKCH_TWR', tag: '0' });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors).sort()).toEqual(['cid', 'date', 'start_at', 'tag']);
    });

    it('requires cid, date, start_at, end_at and position, counting empty form values as missing', async () => {
      const json = await create({});
      expect(json.statusCode).toBe(422);
      expect(json.json().errors).toEqual({
        cid: ['The cid field is required.'],
        date: ['The date field is required.'],
        start_at: ['The start_at field is required.'],
        end_at: ['The end_at field is required.'],
        position: ['The position field is required.'],
      });
      const noBody = await ctx.request({ method: 'POST', url: '/api/bookings/create', token: edit });
      expect(noBody.statusCode).toBe(422);
      expect(noBody.json().errors).toEqual(json.json().errors);
      const form = await createForm({ cid: '', date: '', start_at: '', end_at: '', position: '', tag: '', source: '' });
      expect(form.statusCode).toBe(422);
      expect(Object.keys(form.json().errors).sort()).toEqual(['cid', 'date', 'end_at', 'position', 'start_at']);
    });

    it('accepts 29 February in a leap year only, and refuses an ISO date', async () => {
      const leap = await create({ cid: ADA, date: '29/02/2028', start_at: '10:00', end_at: '11:00', position: 'EKCH_DEL' });
      expect(leap.statusCode).toBe(201);
      expect(leap.json().booking.time_start).toBe('2028-02-29 10:00:00');
      for (const date of ['29/02/2027', '2027-03-01', '31/04/2027']) {
        const res = await create({ cid: ADA, date, start_at: '10:00', end_at: '11:00', position: 'EKCH_DEL' });
        expect(res.statusCode, date).toBe(422);
        expect(Object.keys(res.json().errors)).toEqual(['date']);
      }
    });

    it('refuses unknown fields and non-object bodies', async () => {
      const day = nextDay();
      const extra = await create({ cid: ADA, date: day.dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_DEL', start: '10:00' });
      expect(extra.statusCode).toBe(422);
      expect(extra.json().errors).toEqual({ start: ['The start field is not allowed.'] });
      const array = await ctx.request({
        method: 'POST',
        url: '/api/bookings/create',
        token: edit,
        headers: { 'content-type': 'application/json' },
        payload: '[1]',
      });
      expect(array.statusCode).toBe(422);
    });

    it('refuses an unknown cid and an unknown position together (422), matching callsigns case-insensitively', async () => {
      const day = nextDay();
      const res = await create({ cid: 9999999, date: day.dmy, start_at: '10:00', end_at: '10:00', position: 'EKCH_GND' });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors).sort()).toEqual(['cid', 'position']);
      const lower = await create({ cid: ADA, date: day.dmy, start_at: '10:00', end_at: '11:00', position: 'ekch_app' });
      expect(lower.statusCode).toBe(201);
      expect(lower.json().booking.callsign).toBe('EKCH_APP');
    });

    it('refuses equal start and end under end_at', async () => {
      const res = await create({ cid: ADA, date: nextDay().dmy, start_at: '10:00', end_at: '10:00', position: 'EKCH_DEL' });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toEqual({
        message: 'Start and end time cannot be the same',
        errors: { end_at: ['Start and end time cannot be the same'] },
      });
    });

    it('reads an end before the start as the next day, also across the new year', async () => {
      const night = await book({ cid: ADA, date: '31/12/2026', start_at: '22:00', end_at: '02:00', position: 'EKCH_DEL' });
      expect(night.time_start).toBe('2026-12-31 22:00:00');
      expect(night.time_end).toBe('2027-01-01 02:00:00');
      const early = await create({ cid: ADA, date: '1/1/2027', start_at: '01:00', end_at: '03:00', position: 'EKCH_DEL' });
      expect(early.statusCode).toBe(409);
      expect(early.json().conflicts).toEqual([night.id]);
      await book({ cid: ADA, date: '1/1/2027', start_at: '02:00', end_at: '03:00', position: 'EKCH_DEL' });
    });

    it('refuses a start in the past under start_at, but accepts a start at the current minute', async () => {
      for (const [date, start] of [
        ['15/1/2026', '11:59'],
        ['14/1/2026', '13:00'],
      ]) {
        const res = await create({ cid: ADA, date, start_at: start, end_at: '14:00', position: 'EKCH_APP' });
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({
          message: 'Start time cannot be in the past',
          errors: { start_at: ['Start time cannot be in the past'] },
        });
      }
      const atNow = await create({ cid: ADA, date: '15/1/2026', start_at: '12:00', end_at: '14:00', position: 'EKCH_APP' });
      expect(atNow.statusCode).toBe(201);
    });

    it('follows the clock it is given', async () => {
      const later = Date.UTC(2026, 5, 1, 12);
      ctx.setNow(later);
      try {
        const res = await create({ cid: ADA, date: '1/6/2026', start_at: '11:00', end_at: '13:00', position: 'EKCH_APP' });
        expect(res.statusCode).toBe(422);
        const ok = await create({ cid: ADA, date: '1/6/2026', start_at: '12:30', end_at: '13:00', position: 'EKCH_APP' });
        expect(ok.json().booking.created_at).toBe('2026-06-01T12:00:00.000000Z');
      } finally {
        ctx.setNow(NOW);
      }
    });

    it('refuses overlaps on the same position with 409 and the conflicting ids; adjacency is fine', async () => {
      const { dmy } = nextDay();
      const at = (start_at: string, end_at: string, extra: Record<string, unknown> = {}) =>
        create({ cid: ADA, date: dmy, start_at, end_at, position: 'EKCH_TWR', ...extra });
      const mid = (await at('10:00', '12:00')).json().booking;
      expect((await at('12:00', '14:00')).statusCode).toBe(201);
      expect((await at('08:00', '10:00')).statusCode).toBe(201);

      const partial = await at('11:00', '13:00');
      expect(partial.statusCode).toBe(409);
      expect(partial.json()).toEqual({ message: 'Booking overlaps with an existing booking', conflicts: expect.any(Array) });
      expect(partial.json().conflicts).toHaveLength(2);
      expect(partial.json().conflicts).toContain(mid.id);

      const inside = await at('10:30', '11:30');
      expect(inside.statusCode).toBe(409);
      expect(inside.json().conflicts).toEqual([mid.id]);

      const around = await at('07:00', '15:00');
      expect(around.statusCode).toBe(409);
      const ids = around.json().conflicts;
      expect(ids).toHaveLength(3);
      expect([...ids].sort((a: number, b: number) => a - b)).toEqual(ids);

      // Another position at the same time, by the same user, is no conflict.
      const elsewhere = await create({ cid: ADA, date: dmy, start_at: '10:00', end_at: '12:00', position: 'EKCH_APP' });
      expect(elsewhere.statusCode).toBe(201);
    });

    it('frees the slot of a deleted booking', async () => {
      const { dmy } = nextDay();
      const first = await book({ cid: ADA, date: dmy, start_at: '10:00', end_at: '12:00', position: 'EKCH_DEL' });
      expect((await create({ cid: GU, date: dmy, start_at: '10:30', end_at: '11:30', position: 'EKCH_DEL' })).statusCode).toBe(409);
      expect((await del(first.id)).statusCode).toBe(200);
      expect((await create({ cid: GU, date: dmy, start_at: '10:30', end_at: '11:30', position: 'EKCH_DEL' })).statusCode).toBe(201);
    });

    it('sets exactly one flag per tag, none without a tag', async () => {
      const { dmy } = nextDay();
      const cases: Array<[unknown, Record<string, number>]> = [
        [1, { training: 1, exam: 0, event: 0 }],
        [2, { training: 0, exam: 1, event: 0 }],
        ['3', { training: 0, exam: 0, event: 1 }],
        [null, { training: 0, exam: 0, event: 0 }],
      ];
      for (const [i, [tag, flags]] of cases.entries()) {
        const res = await create({ cid: ADA, date: dmy, start_at: `${10 + i}:00`, end_at: `${10 + i}:30`, position: 'EKCH_APP', tag });
        expect(res.statusCode).toBe(201);
        expect(res.json().booking).toMatchObject(flags);
        expect(res.json()).not.toHaveProperty('tag');
      }
    });

    it('forces training (and says so) when the rating is below the position, whatever the tag', async () => {
      const { dmy } = nextDay();
      const res = await create({ cid: BO, date: dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_APP', tag: 3 });
      expect(res.statusCode).toBe(201);
      expect(res.json()).toEqual({
        message: 'Booking created',
        booking: expect.objectContaining({ training: 1, event: 1, exam: 0 }),
        tag: 'Training',
      });
      // S1 is enough for EKCH_DEL, which needs no facility endorsement.
      const fine = await create({ cid: BO, date: dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_DEL' });
      expect(fine.json()).not.toHaveProperty('tag');
      expect(fine.json().booking.training).toBe(0);
    });

    it('forces training unless the user holds an active endorsement for the facility the position requires', async () => {
      const { dmy } = nextDay();
      const cases: Array<[number, boolean]> = [
        [ADA, false],
        [GU, false],
        [CY, true], // expired
        [DI, true], // revoked
        [ED, true], // not valid yet
        [FA, true], // a solo endorsement does not lift it
      ];
      for (const [i, [cid, forced]] of cases.entries()) {
        const res = await create({ cid, date: dmy, start_at: `${8 + i}:00`, end_at: `${9 + i}:00`, position: 'EKCH_TWR' });
        expect(res.statusCode, String(cid)).toBe(201);
        expect(res.json().booking.training, String(cid)).toBe(forced ? 1 : 0);
        expect(res.json().tag, String(cid)).toBe(forced ? 'Training' : undefined);
      }
    });

    it('defaults the source to CC, upper-cases it, and refuses a bad one', async () => {
      const { dmy } = nextDay();
      expect((await book({ cid: ADA, date: dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_DEL' })).source).toBe('CC');
      expect(
        (await book({ cid: ADA, date: dmy, start_at: '11:00', end_at: '12:00', position: 'EKCH_DEL', source: 'vatsim-sync_2' })).source,
      ).toBe('VATSIM-SYNC_2');
      for (const source of ['x'.repeat(17), 'a b', 'ÆØÅ', 5]) {
        const res = await create({ cid: ADA, date: dmy, start_at: '12:00', end_at: '13:00', position: 'EKCH_DEL', source });
        expect(res.statusCode, String(source)).toBe(422);
        expect(Object.keys(res.json().errors)).toEqual(['source']);
      }
    });
  });

  it('refuses a position with a control character (a NUL would break PostgreSQL) as a bad field', async () => {
    for (const position of ['EKCH\u0000TWR', 'EKCH_TWR\u0000', '\u0007']) {
      const res = await create({ cid: ADA, date: nextDay().dmy, start_at: '10:00', end_at: '11:00', position });
      expect(res.statusCode, JSON.stringify(position)).toBe(422);
      expect(Object.keys(res.json().errors), JSON.stringify(position)).toEqual(['position']);
    }
  });

  describe('PATCH /api/bookings/{id}', () => {
    it('changes only the fields given and stamps updated_at', async () => {
      const { dmy, ymd } = nextDay();
      const booking = await book({ cid: ADA, date: dmy, start_at: '10:00', end_at: '12:00', position: 'EKCH_APP', tag: 2 });
      ctx.setNow(NOW + 60_000);
      try {
        const res = await patch(booking.id, { end_at: '13:30' });
        expect(res.statusCode).toBe(200);
        expect(Object.keys(res.json())).toEqual(['message', 'booking']);
        expect(res.json()).toEqual({
          message: 'Booking updated',
          booking: { ...booking, time_end: `${ymd} 13:30:00`, updated_at: '2026-01-15T12:01:00.000000Z' },
        });
      } finally {
        ctx.setNow(NOW);
      }
    });

    it('moves a booking to another position, day or user, keeping the rest', async () => {
      const { dmy } = nextDay();
      const other = nextDay();
      const booking = await book({ cid: ADA, date: dmy, start_at: '22:00', end_at: '01:00', position: 'EKCH_APP', tag: 3 });
      const moved = (await patch(booking.id, { position: 'ekch_del', date: other.dmy, cid: String(GU) })).json().booking;
      expect(moved).toMatchObject({
        callsign: 'EKCH_DEL',
        position_id: positionId.EKCH_DEL,
        user_id: GU,
        name: 'Gu Holm',
        time_start: `${other.ymd} 22:00:00`,
        event: 1,
      });
      expect(moved.time_end.startsWith(`${other.ymd} `)).toBe(false);
      expect(moved.time_end.endsWith(' 01:00:00')).toBe(true);
    });

    it('keeps the flags without a tag, sets them from a tag, and clears them with a null tag', async () => {
      const booking = await book({ cid: ADA, date: nextDay().dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_APP', tag: 2 });
      expect((await patch(booking.id, { start_at: '10:15' })).json().booking).toMatchObject({ exam: 1, training: 0, event: 0 });
      expect((await patch(booking.id, { tag: 1 })).json().booking).toMatchObject({ exam: 0, training: 1, event: 0 });
      expect((await patch(booking.id, { tag: null })).json().booking).toMatchObject({ exam: 0, training: 0, event: 0 });
    });

    it('accepts form bodies', async () => {
      const booking = await book({ cid: ADA, date: nextDay().dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_APP' });
      const res = await ctx.request({
        method: 'PATCH',
        url: `/api/bookings/${booking.id}`,
        token: edit,
        headers: FORM,
        payload: 'tag=3&end_at=11%3A45',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().booking).toMatchObject({ event: 1, time_end: booking.time_end.replace('11:00', '11:45') });
    });

    it('refuses a source, unknown fields and bad formats together, changing nothing', async () => {
      const booking = await book({ cid: ADA, date: nextDay().dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_APP' });
      const res = await patch(booking.id, { source: 'OTHER', date: '31/02/2026', start_at: '7', tag: 9, cid: true, colour: 'red' });
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors).sort()).toEqual(['cid', 'colour', 'date', 'source', 'start_at', 'tag']);
      expect((await get(booking.id, read)).json()).toEqual(booking);
    });

    it('applies the rules to the result: unknown user or position, equal times, overlap', async () => {
      const { dmy } = nextDay();
      const a = await book({ cid: ADA, date: dmy, start_at: '10:00', end_at: '12:00', position: 'EKCH_DEL' });
      const b = await book({ cid: ADA, date: dmy, start_at: '12:00', end_at: '14:00', position: 'EKCH_DEL' });

      const unknown = await patch(b.id, { cid: 9999999, position: 'XXXX_CTR' });
      expect(unknown.statusCode).toBe(422);
      expect(Object.keys(unknown.json().errors).sort()).toEqual(['cid', 'position']);

      const same = await patch(b.id, { end_at: '12:00' });
      expect(same.statusCode).toBe(422);
      expect(same.json().errors).toEqual({ end_at: ['Start and end time cannot be the same'] });

      const onto = await patch(b.id, { start_at: '11:00' });
      expect(onto.statusCode).toBe(409);
      expect(onto.json()).toEqual({ message: 'Booking overlaps with an existing booking', conflicts: [a.id] });

      // Growing over its own old period is no conflict with itself.
      const grown = await patch(b.id, { end_at: '15:00' });
      expect(grown.statusCode).toBe(200);
      expect((await get(b.id, read)).json().time_start).toBe(b.time_start);
    });

    it('lets an ongoing booking be extended, but not have its start moved into the past', async () => {
      await ctx.load({
        bookings: [buildBooking({ callsign: 'EKCH_DEL', time_start: '2026-01-15 11:00:00', time_end: '2026-01-15 13:00:00' })],
      });
      const ongoing = (
        await ctx.request({ method: 'GET', url: '/api/bookings?callsign=EKCH_DEL&from=2026-01-15&to=2026-01-15', token: read })
      ).json()[0];
      expect(ongoing.time_start).toBe('2026-01-15 11:00:00');

      const extended = await patch(ongoing.id, { end_at: '14:00', tag: 1 });
      expect(extended.statusCode).toBe(200);
      expect(extended.json().booking).toMatchObject({ time_start: '2026-01-15 11:00:00', time_end: '2026-01-15 14:00:00', training: 1 });

      const moved = await patch(ongoing.id, { start_at: '11:30' });
      expect(moved.statusCode).toBe(422);
      expect(moved.json().errors).toEqual({ start_at: ['Start time cannot be in the past'] });
    });

    it('forces training when the new user is not qualified for the position', async () => {
      const booking = await book({ cid: ADA, date: nextDay().dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_APP' });
      const res = await patch(booking.id, { cid: BO });
      expect(res.json()).toEqual({
        message: 'Booking updated',
        booking: expect.objectContaining({ user_id: BO, training: 1 }),
        tag: 'Training',
      });
    });

    it('lifts forced training when the booking moves to a qualified user, but keeps a chosen one', async () => {
      const forced = await book({ cid: BO, date: nextDay().dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_APP' });
      expect(forced.training).toBe(1);
      const lifted = await patch(forced.id, { cid: ADA });
      expect(lifted.json()).toEqual({ message: 'Booking updated', booking: expect.objectContaining({ user_id: ADA, training: 0 }) });
      const again = await patch(forced.id, { cid: BO });
      expect(again.json()).toEqual({
        message: 'Booking updated',
        booking: expect.objectContaining({ user_id: BO, training: 1 }),
        tag: 'Training',
      });

      const chosen = await book({ cid: BO, date: nextDay().dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_APP', tag: 1 });
      const kept = await patch(chosen.id, { cid: ADA });
      expect(kept.json()).toEqual({ message: 'Booking updated', booking: expect.objectContaining({ user_id: ADA, training: 1 }) });
    });

    it('refuses an empty body with 422 and changes nothing', async () => {
      const booking = await book({ cid: ADA, date: nextDay().dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_APP', tag: 1 });
      const res = await ctx.request({ method: 'PATCH', url: `/api/bookings/${booking.id}`, token: edit });
      expect(res.statusCode).toBe(422);
      expect((await get(booking.id, read)).json()).toEqual(booking);
    });

    it('returns 404 for an unknown id', async () => {
      expect((await patch(987654, { tag: 1 })).statusCode).toBe(404);
      expect((await patch(987654, { tag: 1 })).json()).toEqual({ message: 'Booking not found' });
    });
  });

  describe('DELETE /api/bookings/{id}', () => {
    it('soft-deletes: 200 with deleted: 1, gone from the list, still readable with a key, then 409 for PATCH and DELETE', async () => {
      const booking = await book({ cid: ADA, date: nextDay().dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_APP' });
      ctx.setNow(NOW + 5_000);
      const res = await del(booking.id);
      ctx.setNow(NOW);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        message: 'Booking deleted',
        booking: { ...booking, deleted: 1, updated_at: '2026-01-15T12:00:05.000000Z' },
      });
      expect(await listIds()).not.toContain(booking.id);

      const withKey = await get(booking.id, read);
      expect(withKey.statusCode).toBe(200);
      expect(withKey.json()).toMatchObject({ id: booking.id, deleted: 1 });
      expect((await get(booking.id)).statusCode).toBe(404);

      const again = await del(booking.id);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ message: expect.any(String) });
      expect((await patch(booking.id, { tag: 1 })).statusCode).toBe(409);
      expect((await get(booking.id, read)).json().training).toBe(0);
    });

    it('returns 404 for any id that names no booking: unknown, zero, beyond the id range, or not a number', async () => {
      expect((await del(987654)).json()).toEqual({ message: 'Booking not found' });
      for (const id of ['987654', '0', '2147483648', '99999999999', '123456789012345678901234567890', 'abc', '1e3', '-1']) {
        for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
          const res = await ctx.request({
            method,
            url: `/api/bookings/${id}`,
            token: edit,
            ...(method === 'PATCH' ? { payload: { tag: 1 } } : {}),
          });
          expect(res.statusCode, `${method} ${id}`).toBe(404);
          expect(res.json(), `${method} ${id}`).toEqual({ message: expect.any(String) });
        }
      }
    });
  });

  describe('keys and bodies', () => {
    it('needs an edit key: none -> 401, unknown -> 401, read-only -> 403, and nothing changes', async () => {
      const target = await book({ cid: ADA, date: nextDay().dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_APP' });
      const before = await listIds();
      const payload = { cid: ADA, date: nextDay().dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_APP' };
      const bogus = 'sector_0123456789abcdef_' + 'A'.repeat(43);
      const attempts = [
        (token: string | null) => create(payload, token),
        (token: string | null) => patch(target.id, { tag: 2 }, token),
        (token: string | null) => del(target.id, token),
      ];
      for (const attempt of attempts) {
        const none = await attempt(null);
        expect(none.statusCode).toBe(401);
        expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
        expect((await attempt(bogus)).statusCode).toBe(401);
        const readOnly = await attempt(read);
        expect(readOnly.statusCode).toBe(403);
        expect(readOnly.json()).toEqual({ message: expect.any(String) });
      }
      expect(await listIds()).toEqual(before);
      expect((await get(target.id, read)).json()).toEqual(target);
    });

    it('shows the reduced form without a key and the full form with one', async () => {
      const booking = await book({ cid: ADA, date: nextDay().dmy, start_at: '10:00', end_at: '11:00', position: 'EKCH_APP' });
      expect(Object.keys((await get(booking.id)).json())).toEqual(REDUCED_KEYS);
      expect(Object.keys((await get(booking.id, read)).json())).toEqual(FULL_KEYS);
      expect((await get(booking.id, 'sector_0123456789abcdef_' + 'A'.repeat(43))).statusCode).toBe(401);
    });
  });
});
