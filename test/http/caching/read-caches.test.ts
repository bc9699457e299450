// Read caches on both databases: an unchanged list is answered from memory, and a commit by any
// other connection (another instance, the CLI, an operator's SQL) is seen on the next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/db/connection.js';
import { createTestContext, TEST_DIALECT, type TestContext } from '../../support/context.js';
import { BO, buildBooking, buildDivision, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 2, 10, 12, 0, 0);
const HOUR = 3_600_000;

const division = buildDivision({
  users: [buildUser(), buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg', rating: 'S3' })],
  bookings: [buildBooking({ time_start: '2026-03-12 10:00:00', time_end: '2026-03-12 12:00:00' })],
});

// What a request answered from memory may still run: nothing on SQLite (its key is cached too);
// on PostgreSQL the key lookup (keys are read on every request, so a revocation holds on every
// instance at once) and one read of the snapshot. No statement touches the listed data.
const WARM_STATEMENTS = TEST_DIALECT === 'postgres' ? [/\bapi_keys\b/, /pg_current_snapshot/] : [];

// The server notices another connection's commit from its next event-loop turn on, as a real
// request (read from a socket) always is; injected requests may share a turn, so wait for one.
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('read caches', () => {
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

  // PostgreSQL's snapshot is the whole server's: other test files writing in parallel change
  // it, and then a rebuild is right. So the claim is tested on a pair of requests during which
  // the snapshot stood still, which a few attempts always find.
  const snapshot = async () => (other.currentSnapshot ? other.currentSnapshot() : 'sqlite');
  const ATTEMPTS = 200;

  it.each(['/api/users?include[]=allUsers&include[]=name', '/api/bookings', '/api/bookings?limit=1', '/api/positions'])(
    'answers an unchanged %s from memory',
    async (url) => {
      for (let attempt = 1; ; attempt++) {
        const before = await snapshot();
        const first = await get(url);
        expect(first.statusCode).toBe(200);
        ctx.resetQueries();
        const second = await get(url);
        const statements = ctx.statements();
        expect(second.body).toBe(first.body);
        expect(second.headers.etag).toBe(first.headers.etag);
        if ((await snapshot()) !== before) {
          expect(attempt, 'the database server was never quiet for two requests').toBeLessThan(ATTEMPTS);
          continue;
        }
        expect(statements).toHaveLength(WARM_STATEMENTS.length);
        WARM_STATEMENTS.forEach((pattern, i) => expect(statements[i]).toMatch(pattern));
        break;
      }
    },
  );

  it('sees a user renamed by another connection on the next request', async () => {
    const url = '/api/users?include[]=allUsers&include[]=name';
    const before = await get(url);
    expect(before.json()[0]).toMatchObject({ id: 1000001, first_name: 'Ada' });
    await other.kysely.updateTable('users').set({ first_name: 'Adele' }).where('id', '=', 1000001).execute();
    await nextTurn();
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
    await nextTurn();
    expect(await list()).toEqual([...ids, id]);
    expect(await page()).toMatch(/rel="next"/);

    await other.kysely.updateTable('bookings').set({ deleted: 1 }).where('id', '=', id).execute();
    await nextTurn();
    expect(await list()).toEqual(ids);
  });
});
