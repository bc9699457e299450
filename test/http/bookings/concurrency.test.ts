// Simultaneous writes over a real listening server: the overlap check and the write are one
// transaction, and the database refuses overlaps on its own, so exactly one writer wins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { isBookingOverlap } from '../../../src/core/db/errors.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildBooking, buildDivision, buildPosition, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const WRITERS = 40;
const USERS = Array.from({ length: 8 }, (_, i) => 2000001 + i);

describe('no double booking under concurrency', () => {
  let ctx: TestContext;
  let base: string;
  let edit: string;
  // Enough sockets that every request is in flight at the same time.
  const agent = new Agent({ connections: WRITERS * 2, pipelining: 0 });

  async function send(method: 'POST' | 'PATCH', path: string, body: unknown) {
    const res = await request(`${base}${path}`, {
      method,
      dispatcher: agent,
      headers: { authorization: `Bearer ${edit}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.statusCode, body: (await res.body.json()) as Record<string, any> };
  }

  async function liveIdsOn(callsign: string, from: string, to: string): Promise<number[]> {
    const res = await request(`${base}/api/bookings?callsign=${callsign}&from=${from}&to=${to}`, {
      dispatcher: agent,
      headers: { authorization: `Bearer ${edit}` },
    });
    return ((await res.body.json()) as Array<{ id: number }>).map((b) => b.id);
  }

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(
      buildDivision({
        users: USERS.map((id) => buildUser({ id, first_name: 'User', last_name: String(id) })),
        positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP')],
        // One booking per writer on its own day in April, for the updates to move.
        bookings: Array.from({ length: WRITERS }, (_, i) => {
          const day = new Date(Date.UTC(2026, 3, 1) + i * 86_400_000).toISOString().slice(0, 10);
          return buildBooking({
            user_id: USERS[i % USERS.length],
            callsign: 'EKCH_APP',
            time_start: `${day} 10:00:00`,
            time_end: `${day} 11:00:00`,
          });
        }),
      }),
    );
    edit = await ctx.key('edit');
    base = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await agent.close();
    await ctx.close();
  });

  it(`${WRITERS} simultaneous overlapping creates: exactly one 201, every other 409 naming the winner`, async () => {
    const results = await Promise.all(
      Array.from({ length: WRITERS }, (_, i) =>
        send('POST', '/api/bookings/create', {
          cid: USERS[i % USERS.length],
          date: '2/3/2026',
          // Different periods that all contain 10:39–12:00, so any two of them overlap.
          start_at: `10:${String(i).padStart(2, '0')}`,
          end_at: `${12 + (i % 3)}:00`,
          position: 'EKCH_TWR',
        }),
      ),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(WRITERS - 1);
    const winner = results.find((r) => r.status === 201)!.body.booking.id;
    for (const r of results.filter((x) => x.status === 409)) {
      expect(r.body).toEqual({ message: 'Booking overlaps with an existing booking', conflicts: [winner] });
    }
    expect(await liveIdsOn('EKCH_TWR', '2026-03-02', '2026-03-02')).toEqual([winner]);
  });

  it(`${WRITERS} simultaneous updates moving different bookings onto one slot: exactly one 200`, async () => {
    const april = await liveIdsOn('EKCH_APP', '2026-04-01', '2026-05-10');
    expect(april).toHaveLength(WRITERS);
    const results = await Promise.all(
      april.map((id) => send('PATCH', `/api/bookings/${id}`, { date: '20/5/2026', start_at: '14:00', end_at: '16:00' })),
    );
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(WRITERS - 1);
    const winner = results.find((r) => r.status === 200)!.body.booking.id;
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.conflicts).toEqual([winner]);
    expect(await liveIdsOn('EKCH_APP', '2026-05-20', '2026-05-20')).toEqual([winner]);
    // The losers kept their own slots.
    expect(await liveIdsOn('EKCH_APP', '2026-04-01', '2026-05-10')).toEqual(april.filter((id) => id !== winner));
  });

  it('mixed simultaneous creates and updates on one slot: still exactly one winner', async () => {
    const movable = (await liveIdsOn('EKCH_APP', '2026-04-01', '2026-05-10')).slice(0, WRITERS / 2);
    const slot = { date: '21/5/2026', start_at: '08:00', end_at: '09:00' };
    const results = await Promise.all([
      ...movable.map((id) => send('PATCH', `/api/bookings/${id}`, slot)),
      ...movable.map((_, i) => send('POST', '/api/bookings/create', { ...slot, cid: USERS[i % USERS.length], position: 'EKCH_APP' })),
    ]);
    const wins = results.filter((r) => r.status === 200 || r.status === 201);
    expect(wins).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(results.length - 1);
    expect(await liveIdsOn('EKCH_APP', '2026-05-21', '2026-05-21')).toEqual([wins[0]!.body.booking.id]);
  });

  it('rounds of staggered overlapping creates: every response a 201 or a 409, never a server error', async () => {
    // Each round's bookings overlap their neighbours like a chain, the pattern in which
    // PostgreSQL's exclusion checks can wait on each other and abort one as a deadlock.
    const statuses: number[] = [];
    for (let round = 0; round < 40; round++) {
      const date = `${(round % 28) + 1}/${6 + Math.floor(round / 28)}/2026`;
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          send('POST', '/api/bookings/create', {
            cid: USERS[i % USERS.length],
            date,
            start_at: `10:${String(i * 5).padStart(2, '0')}`,
            end_at: `11:${String(i * 5).padStart(2, '0')}`,
            position: 'EKCH_TWR',
          }),
        ),
      );
      statuses.push(...results.map((r) => r.status));
      const day = `2026-${String(6 + Math.floor(round / 28)).padStart(2, '0')}-${String((round % 28) + 1).padStart(2, '0')}`;
      expect(await liveIdsOn('EKCH_TWR', day, day)).toHaveLength(results.filter((r) => r.status === 201).length);
    }
    expect(statuses.filter((s) => s !== 201 && s !== 409)).toEqual([]);
  });

  it('two simultaneous updates of one booking both take effect: neither overwrites the other', async () => {
    const lost: number[] = [];
    for (let round = 0; round < 20; round++) {
      const date = `${(round % 28) + 1}/8/2026`;
      const created = await send('POST', '/api/bookings/create', {
        cid: USERS[0],
        date,
        start_at: '10:00',
        end_at: '11:00',
        position: 'EKCH_TWR',
      });
      expect(created.status).toBe(201);
      const id = created.body.booking.id as number;
      const [tag, end] = await Promise.all([
        send('PATCH', `/api/bookings/${id}`, { tag: 2 }),
        send('PATCH', `/api/bookings/${id}`, { end_at: '12:00' }),
      ]);
      expect([tag.status, end.status]).toEqual([200, 200]);
      const res = await request(`${base}/api/bookings/${id}`, { dispatcher: agent, headers: { authorization: `Bearer ${edit}` } });
      const final = (await res.body.json()) as { exam: number; time_end: string };
      if (final.exam !== 1 || !final.time_end.endsWith(' 12:00:00')) lost.push(round);
    }
    expect(lost).toEqual([]);
  });

  it('the database itself refuses an overlapping row written past the API', async () => {
    const [existing] = await ctx.services.db.kysely.selectFrom('bookings').selectAll().where('deleted', '=', 0).limit(1).execute();
    const { id: _id, ...copy } = existing!;
    const err = await ctx.services.db.kysely
      .insertInto('bookings')
      .values({ ...copy, time_start: copy.time_start + 60_000 })
      .execute()
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).not.toBeNull();
    expect(isBookingOverlap(err)).toBe(true);
  });
});
