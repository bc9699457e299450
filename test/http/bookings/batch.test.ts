// POST /api/bookings/batch (contract §5, "Batches and retries"): all of a roster created in one
// transaction, in order, or nothing at all; each booking published, pushed and audited as a create.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FULL_KEYS } from '../../support/booking-forms.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { tableRows } from '../../support/db-state.js';
import { ADA, BO, buildDivision, buildPosition, buildUser } from '../../support/factories.js';

// Pinned clock: 15 January 2026, 12:00 UTC.
const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
// Everything a batch writes; a refused batch must leave every one of them as it was.
const WRITTEN = ['bookings', 'events', 'audit_log', 'network_pushes', 'idempotency_keys'] as const;

const DATA = buildDivision({
  users: [
    buildUser({ id: ADA, first_name: 'Ada', last_name: 'Lind', rating: 'C1' }),
    buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg', rating: 'S1' }),
  ],
  positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_DEL'), buildPosition('EKCH_APP')],
});

// Every test books on its own day (from 1 March 2026), so tests never collide.
let dayIndex = 0;
function nextDay(): { dmy: string; ymd: string } {
  const d = new Date(Date.UTC(2026, 2, 1) + dayIndex++ * 86_400_000);
  return { dmy: `${d.getUTCDate()}/${d.getUTCMonth() + 1}/${d.getUTCFullYear()}`, ymd: d.toISOString().slice(0, 10) };
}

interface Item {
  cid: number;
  date: string;
  start_at: string;
  end_at: string;
  position: string;
  tag?: number;
}

describe('POST /api/bookings/batch', () => {
  let ctx: TestContext;
  let edit: string;

  const batch = (bookings: unknown[], token = edit) =>
    ctx.request({ method: 'POST', url: '/api/bookings/batch', token, payload: { bookings } });
  const item = (day: string, start_at: string, end_at: string, position = 'EKCH_TWR', cid = ADA): Item => ({
    cid,
    date: day,
    start_at,
    end_at,
    position,
  });
  const written = () => tableRows(ctx.databaseUrl, WRITTEN);

  beforeAll(async () => {
    // Network sync configured (nothing listens there, and no worker runs): changes are owed to the network.
    ctx = await createTestContext({ now: NOW, env: { NETWORK_BOOKINGS_URL: 'http://127.0.0.1:9/bookings', NETWORK_BOOKINGS_KEY: 'k' } });
    await ctx.load(DATA);
    edit = await ctx.key('edit');
  });
  afterAll(() => ctx.close());

  it('creates every booking in the given order, each with its event (owed to the network) and audit entry as a create has', async () => {
    const day = nextDay();
    const res = await batch([
      item(day.dmy, '10:00', '12:00'),
      item(day.dmy, '08:00', '09:00', 'EKCH_APP', BO),
      item(day.dmy, '12:00', '14:00'),
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['message', 'bookings']);
    expect(body.message).toBe('Bookings created');
    expect(
      body.bookings.map((b: { callsign: string; time_start: string; user_id: number }) => [b.callsign, b.time_start, b.user_id]),
    ).toEqual([
      ['EKCH_TWR', `${day.ymd} 10:00:00`, ADA],
      ['EKCH_APP', `${day.ymd} 08:00:00`, BO],
      ['EKCH_TWR', `${day.ymd} 12:00:00`, ADA],
    ]);
    for (const b of body.bookings) expect(Object.keys(b)).toEqual(FULL_KEYS);
    // Forced training, as a create decides it: Bo (S1) is below EKCH_APP.
    expect(body.bookings[1].training).toBe(1);
    const ids: number[] = body.bookings.map((b: { id: number }) => b.id);
    expect(ids[0]! < ids[1]! && ids[1]! < ids[2]!).toBe(true);
    for (const [i, id] of ids.entries()) {
      const one = await ctx.request({ method: 'GET', url: `/api/bookings/${id}`, token: edit });
      expect(one.json()).toEqual(body.bookings[i]);
    }

    // A single create, for what a booking's change records.
    const single = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      payload: item(day.dmy, '15:00', '16:00'),
    });
    expect(single.statusCode).toBe(201);
    const caused = async (id: number) => {
      const kysely = ctx.services.db.kysely;
      const events = await kysely.selectFrom('events').select(['type', 'network_push']).where('booking_id', '=', id).execute();
      const audit = await kysely.selectFrom('audit_log').select(['action', 'actor']).where('target', '=', `booking:${id}`).execute();
      return { events, audit };
    };
    const expected = await caused(single.json().booking.id);
    expect(expected.events).toEqual([{ type: 'booking.created', network_push: 1 }]);
    expect(expected.audit).toHaveLength(1);
    for (const id of ids) expect(await caused(id)).toEqual(expected);
  });

  it('a batch with one refused item changes nothing, and names every refused item', async () => {
    const day = nextDay();
    const before = await written();
    const res = await batch([
      item(day.dmy, '10:00', '12:00'),
      item(day.dmy, '10:00', '12:00', 'EKXX_TWR'),
      item(day.dmy, '10:00', '10:00', 'EKCH_DEL'),
      item('14/1/2026', '10:00', '12:00', 'EKCH_APP'),
    ]);
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors as Record<string, string[]>;
    expect(Object.keys(errors).sort()).toEqual(['bookings[1].position', 'bookings[2].end_at', 'bookings[3].start_at']);
    expect(errors['bookings[2].end_at']).toEqual(['Start and end time cannot be the same']);
    expect(errors['bookings[3].start_at']).toEqual(['Start time cannot be in the past']);
    expect(await written()).toEqual(before);
  });

  it('refuses items whose fields are malformed, naming each by its item, before any rule runs', async () => {
    const day = nextDay();
    const before = await written();
    const { cid: _cid, ...noCid } = item(day.dmy, '10:00', '12:00');
    const res = await batch([item(day.dmy, '10:00', '12:00'), { ...item(day.dmy, '25:00', '12:00'), colour: 'red' }, noCid]);
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors).sort()).toEqual(['bookings[1].colour', 'bookings[1].start_at', 'bookings[2].cid']);
    expect(res.json().errors['bookings[2].cid']).toEqual(['The bookings[2].cid field is required.']);

    for (const [bookings, field] of [
      [[], 'bookings'],
      [Array.from({ length: 101 }, (_, i) => item(day.dmy, `${String(i % 24).padStart(2, '0')}:00`, '23:59')), 'bookings'],
      [['EKCH_TWR'], 'bookings[0]'],
    ] as const) {
      const refused = await batch([...bookings]);
      expect(refused.statusCode).toBe(422);
      expect(Object.keys(refused.json().errors)).toEqual([field]);
    }
    expect((await ctx.request({ method: 'POST', url: '/api/bookings/batch', token: edit, payload: {} })).json().errors).toEqual({
      bookings: ['The bookings field is required.'],
    });
    expect(await written()).toEqual(before);
  });

  it('refuses a batch whose items overlap each other: 409 naming the later item, nothing created', async () => {
    const day = nextDay();
    const before = await written();
    const res = await batch([
      item(day.dmy, '10:00', '12:00'),
      item(day.dmy, '10:00', '12:00', 'EKCH_DEL'),
      item(day.dmy, '11:00', '13:00'),
    ]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Booking overlaps with booking 0 of the batch', conflicts: [], index: 2 });
    expect(await written()).toEqual(before);

    // Half-open periods, as for two creates: 10:00–12:00 and 12:00–14:00 share no time.
    expect((await batch([item(day.dmy, '10:00', '12:00'), item(day.dmy, '12:00', '14:00')])).statusCode).toBe(201);
  });

  it('refuses a batch with an item that overlaps a stored booking: 409 with its conflicts and index, nothing created', async () => {
    const day = nextDay();
    const stored = await batch([item(day.dmy, '18:00', '20:00', 'EKCH_DEL')]);
    const storedId = stored.json().bookings[0].id;
    const before = await written();
    const res = await batch([item(day.dmy, '10:00', '12:00'), item(day.dmy, '19:00', '21:00', 'EKCH_DEL')]);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Booking overlaps with an existing booking', conflicts: [storedId], index: 1 });
    expect(await written()).toEqual(before);
  });

  it('takes a form, items numbered bookings[i][field], up to 100 of them', async () => {
    const day = nextDay();
    const hm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
    // 14 minutes apart, 13 long: no two overlap, whichever position.
    const items = Array.from({ length: 100 }, (_, i) => ({
      cid: String(ADA),
      date: day.dmy,
      start_at: hm(i * 14),
      end_at: hm(i * 14 + 13),
      position: i % 2 === 0 ? 'ekch_twr' : 'EKCH_DEL',
      tag: i === 5 ? '3' : '',
    }));
    const form = new URLSearchParams();
    for (const [i, fields] of items.entries()) for (const [k, v] of Object.entries(fields)) form.append(`bookings[${i}][${k}]`, v);
    const res = await ctx.request({ method: 'POST', url: '/api/bookings/batch', token: edit, headers: FORM, payload: form.toString() });
    expect(res.statusCode, res.body).toBe(201);
    const bookings = res.json().bookings as Array<{ callsign: string; time_start: string; event: number }>;
    expect(bookings).toHaveLength(100);
    expect(bookings[0]).toMatchObject({ callsign: 'EKCH_TWR', time_start: `${day.ymd} 00:00:00` });
    expect(bookings[99]).toMatchObject({ callsign: 'EKCH_DEL', time_start: `${day.ymd} 23:06:00` });
    expect(bookings[5]!.event).toBe(1);

    // One item past the limit: the batch is refused whole, never cut short.
    for (const [k, v] of Object.entries(items[0]!)) form.append(`bookings[100][${k}]`, v);
    const tooMany = await ctx.request({ method: 'POST', url: '/api/bookings/batch', token: edit, headers: FORM, payload: form.toString() });
    expect(tooMany.statusCode).toBe(422);
    expect(tooMany.json().errors).toEqual({ bookings: ['A batch takes at most 100 bookings.'] });

    const bad = new URLSearchParams({ 'bookings[0][cid]': 'x', 'bookings[0][date]': day.dmy, 'bookings[0][start_at]': '10:00' });
    const refused = await ctx.request({ method: 'POST', url: '/api/bookings/batch', token: edit, headers: FORM, payload: bad.toString() });
    expect(refused.statusCode).toBe(422);
    expect(Object.keys(refused.json().errors).sort()).toEqual(['bookings[0].cid', 'bookings[0].end_at', 'bookings[0].position']);
  });

  it('makes as many statements for 100 items on three positions as for 2 on one: set-based look-ups, locks and writes, never one statement per item', async () => {
    const day = nextDay();
    const items = (n: number, from: number, positions: string[]) =>
      Array.from({ length: n }, (_, i) => {
        const at = from + i * 10;
        const hm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
        return item(day.dmy, hm(at), hm(at + 5), positions[i % positions.length], i % 2 === 0 ? ADA : BO);
      });
    ctx.resetQueries();
    expect((await batch(items(2, 0, ['EKCH_APP']))).statusCode).toBe(201);
    const forTwo = ctx.queries();
    ctx.resetQueries();
    expect((await batch(items(100, 60, ['EKCH_TWR', 'EKCH_DEL', 'EKCH_APP']))).statusCode).toBe(201);
    expect(ctx.queries()).toBe(forTwo);
    expect(forTwo).toBeLessThan(20);
  });

  it('responds in the Control Center profile as its create does: 200 with "success"', async () => {
    const day = nextDay();
    const compat = await ctx.key('edit', { compat: 'controlcenter' });
    const res = await batch([item(day.dmy, '10:00', '12:00'), item(day.dmy, '10:00', '12:00', 'EKCH_DEL')], compat);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['success', 'bookings']);
    expect(res.json().success).toBe('Bookings created');
    expect(res.json().bookings).toHaveLength(2);
    // Refusals are as without the profile.
    const overlap = await batch([item(day.dmy, '11:00', '12:00')], compat);
    expect(overlap.statusCode).toBe(409);
    expect(overlap.json().index).toBe(0);
  });
});
