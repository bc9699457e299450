// A commit by any other connection (another instance, the CLI, an operator's SQL) is seen on the
// next request, on both databases: reads are plain queries, nothing is kept between requests.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/core/db/connection.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { BO, buildBooking, buildDivision, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const HOUR = 3_600_000;

const division = buildDivision({
  users: [buildUser(), buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg', rating: 'S3' })],
  bookings: [buildBooking({ time_start: '2026-03-12 10:00:00', time_end: '2026-03-12 12:00:00' })],
});

describe('reads after writes by other connections', () => {
  let ctx: TestContext;
  let other: Db;
  let read: string;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(division);
    read = await ctx.key('read');
    // Another connection to the same database, as another instance or the CLI would have.
    other = openDatabase(ctx.databaseUrl);
  });
  afterAll(async () => {
    await other.close();
    await ctx.close();
  });

  const get = (url: string) => ctx.request({ method: 'GET', url, token: read });

  it('sees a user renamed by another connection on the next request', async () => {
    const url = '/api/users?include[]=allUsers&include[]=name';
    const before = await get(url);
    expect(before.json()[0]).toMatchObject({ id: 1000001, first_name: 'Ada' });
    await other.kysely.updateTable('users').set({ first_name: 'Adele' }).where('id', '=', 1000001).execute();
    const after = await get(url);
    expect(after.json()[0]).toMatchObject({ id: 1000001, first_name: 'Adele' });
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('sees a booking written by another connection on the next request, in the list and its pages', async () => {
    const list = async () => (await get('/api/bookings')).json().map((b: { id: number }) => b.id);
    const page = async () => (await get('/api/bookings?limit=1')).headers.link;
    const ids = await list();
    expect(ids).toHaveLength(1);
    expect(await page()).toBeUndefined();

    const start = Date.UTC(2026, 2, 13, 10);
    const { id } = await other.kysely
      .insertInto('bookings')
      .values({
        user_id: 1000002,
        position_id: 1,
        source: 'CC',
        network_booking: null,
        time_start: start,
        time_end: start + HOUR,
        training: 0,
        exam: 0,
        event: 0,
        deleted: 0,
        created_at: NOW,
        updated_at: NOW,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(await list()).toEqual([...ids, id]);
    expect(await page()).toMatch(/rel="next"/);

    await other.kysely.updateTable('bookings').set({ deleted: 1 }).where('id', '=', id).execute();
    expect(await list()).toEqual(ids);
  });
});
