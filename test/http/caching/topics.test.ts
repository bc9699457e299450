// Freshness by topic, on both databases: a write of this process rebuilds only the cached answers
// that show what it changed. A booking written through the API leaves the users lists and the
// positions cached; an import of users leaves the bookings lists cached, unless it renamed someone
// whose name a booking shows; an import of positions rebuilds what shows callsigns.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USERS_TOPICS } from '../../../src/services/users-list.js';
import { createTestContext, TEST_DIALECT, type TestContext } from '../../support/context.js';
import { ADA, BO, buildBooking, buildDivision, buildPosition, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);

const division = buildDivision({
  users: [buildUser(), buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg', rating: 'S3' })],
  positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_DEL')],
  bookings: [buildBooking({ time_start: '2026-03-12 10:00:00', time_end: '2026-03-12 12:00:00' })],
});

const USERS = '/api/users?include[]=allUsers&include[]=name&include[]=endorsements';
const BOOKINGS = '/api/bookings';
const POSITIONS = '/api/positions';

/** Statements that read the data behind an answer (not a key lookup, not the version). */
const readsOf = (statements: string[], table: RegExp) => statements.filter((s) => /^\s*select/i.test(s) && table.test(s));

describe('caches versioned by topic', () => {
  let ctx: TestContext;
  let edit: string;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(division);
    edit = await ctx.key('edit');
  });
  afterAll(() => ctx.close());

  const get = (url: string) => ctx.request({ method: 'GET', url, token: edit });

  // On PostgreSQL a commit by anyone else on the server (other test files run in parallel)
  // starts a new epoch and rightly rebuilds everything; the claim is about this process's own
  // writes, so an attempt during which someone else committed is tried again.
  const epoch = async () => String(await ctx.services.freshness.versionOf(USERS_TOPICS)()).split(':')[0];
  const ATTEMPTS = TEST_DIALECT === 'postgres' ? 100 : 1;

  async function quietly(attempt: () => Promise<'ok' | 'rebuilt'>): Promise<void> {
    for (let i = 1; ; i++) {
      const before = await epoch();
      const outcome = await attempt();
      if (outcome === 'ok') return;
      const foreign = (await epoch()) !== before;
      expect(foreign && i < ATTEMPTS, 'a write of this process rebuilt an answer that does not show what it changed').toBe(true);
    }
  }

  it('keeps the users lists and the positions when a booking is created, changed and deleted', async () => {
    let slot = 0;
    await quietly(async () => {
      const users = await get(USERS);
      const positions = await get(POSITIONS);
      const created = await ctx.request({
        method: 'POST',
        url: '/api/bookings/create',
        token: edit,
        payload: {
          cid: ADA,
          position: 'EKCH_DEL',
          date: `${20 + (slot % 8)}/03/2026`,
          start_at: `${10 + Math.floor(slot / 8)}:00`,
          end_at: `${10 + Math.floor(slot / 8)}:30`,
        },
      });
      slot++;
      expect(created.statusCode).toBe(201);
      const id = (created.json() as { booking: { id: number } }).booking.id;
      expect(
        (
          await ctx.request({
            method: 'PATCH',
            url: `/api/bookings/${id}`,
            token: edit,
            payload: { end_at: `${10 + Math.floor((slot - 1) / 8)}:45` },
          })
        ).statusCode,
      ).toBe(200);
      expect((await ctx.request({ method: 'DELETE', url: `/api/bookings/${id}`, token: edit })).statusCode).toBe(200);
      ctx.resetQueries();
      const usersAgain = await get(USERS);
      const positionsAgain = await get(POSITIONS);
      expect(usersAgain.body).toBe(users.body);
      expect(positionsAgain.body).toBe(positions.body);
      const statements = ctx.statements();
      return readsOf(statements, /"users"|"positions"|"endorsements"/).length === 0 ? 'ok' : 'rebuilt';
    });
  });

  it('rebuilds the bookings list after a booking is created', async () => {
    const before = await get(BOOKINGS);
    const created = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      payload: { cid: BO, position: 'EKCH_DEL', date: '12/03/2026', start_at: '14:00', end_at: '15:00' },
    });
    expect(created.statusCode).toBe(201);
    const after = await get(BOOKINGS);
    expect(after.json()).toHaveLength((before.json() as unknown[]).length + 1);
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('keeps the bookings list when users are imported without a name changing, and rebuilds it when a name does', async () => {
    await quietly(async () => {
      const bookings = await get(BOOKINGS);
      await ctx.load({ users: [{ id: ADA, rating: 'S3', email: `ada+${Date.now()}@example.org` }] });
      ctx.resetQueries();
      const again = await get(BOOKINGS);
      expect(again.body).toBe(bookings.body);
      return readsOf(ctx.statements(), /"bookings"/).length === 0 ? 'ok' : 'rebuilt';
    });
    // The full form shows the booker's name: a rename must show at once.
    await ctx.load({ users: [{ id: ADA, first_name: 'Adele' }] });
    const renamed = (await get(BOOKINGS)).json() as Array<{ user_id: number; name: string }>;
    expect(renamed.find((b) => b.user_id === ADA)?.name).toBe('Adele Lind');
    // And the users list shows the import's rating.
    const users = (await get(USERS)).json() as Array<{ id: number; rating: string; first_name: string }>;
    expect(users.find((u) => u.id === ADA)).toMatchObject({ rating: 'S3', first_name: 'Adele' });
  });

  it('rebuilds the bookings list and the positions when positions are imported', async () => {
    const before = (await get(POSITIONS)).json() as { data: Array<{ callsign: string; name: string }> };
    await ctx.load({ positions: [{ callsign: 'EKCH_TWR', name: 'Kastrup Tower (renamed)', frequency: '118.105' }] });
    const after = (await get(POSITIONS)).json() as { data: Array<{ callsign: string; name: string }> };
    expect(after.data.find((p) => p.callsign === 'EKCH_TWR')?.name).toBe('Kastrup Tower (renamed)');
    expect(after).not.toEqual(before);
  });
});
