// A write that waits for a booking's row lock must act on the booking as the other writer left
// it: not lose it because that writer changed its booker or position.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_DIALECT, type TestContext } from '../../support/context.js';
import { buildDivision, buildPosition, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const ADA = 3000001;
const BO = 3000002;

describe('booking writes against a booking changed meanwhile', () => {
  let ctx: TestContext;
  let edit: string;
  let positionIds: Record<string, number>;
  let day = 0;

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(
      buildDivision({
        users: [buildUser({ id: ADA }), buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg' })],
        positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_GND')],
      }),
    );
    edit = await ctx.key('edit');
    const rows = await ctx.services.db.kysely.selectFrom('positions').select(['id', 'callsign']).execute();
    positionIds = Object.fromEntries(rows.map((p) => [p.callsign, p.id]));
  });
  afterAll(() => ctx.close());

  /** A new booking of Ada's on EKCH_DEL, each on a day of its own. */
  async function book(): Promise<number> {
    const d = new Date(Date.UTC(2026, 2, 1) + day++ * 86_400_000);
    const res = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      payload: {
        cid: ADA,
        date: `${d.getUTCDate()}/${d.getUTCMonth() + 1}/${d.getUTCFullYear()}`,
        start_at: '10:00',
        end_at: '11:00',
        position: 'EKCH_DEL',
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().booking.id as number;
  }

  const stored = (id: number) => ctx.services.db.kysely.selectFrom('bookings').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  /**
   * Runs `request` while another transaction holds the booking's row, having changed its
   * booker and position, and commits that transaction only once the request waits for it.
   */
  async function whileRowIsChanged<T>(id: number, request: () => Promise<T>): Promise<T> {
    const db = ctx.services.db.kysely;
    let response!: Promise<T>;
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('bookings').set({ user_id: BO, position_id: positionIds.EKCH_GND! }).where('id', '=', id).execute();
      const { xid } = (await sql<{ xid: string }>`SELECT pg_current_xact_id()::text AS xid`.execute(trx)).rows[0]!;
      response = request();
      // The request is blocked on this transaction's row lock: a lock on its id that is not granted.
      for (let i = 0; ; i++) {
        const waiting =
          await sql`SELECT 1 FROM pg_locks WHERE locktype = 'transactionid' AND transactionid::text = ${xid} AND NOT granted`.execute(db);
        if (waiting.rows.length > 0) break;
        if (i > 2000) throw new Error('the request never waited for the row lock');
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    });
    return response;
  }

  it.runIf(TEST_DIALECT === 'postgres')('a DELETE that waited for the lock deletes the booking as changed', async () => {
    const id = await book();
    const res = await whileRowIsChanged(id, () => ctx.request({ method: 'DELETE', url: `/api/bookings/${id}`, token: edit }));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ id, deleted: 1, user_id: BO, callsign: 'EKCH_GND' });
    expect(await stored(id)).toMatchObject({ deleted: 1, user_id: BO, position_id: positionIds.EKCH_GND });
  });

  it.runIf(TEST_DIALECT === 'postgres')('a PATCH that waited for the lock updates the booking as changed', async () => {
    const id = await book();
    const res = await whileRowIsChanged(id, () =>
      ctx.request({ method: 'PATCH', url: `/api/bookings/${id}`, token: edit, payload: { tag: 2 } }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().booking).toMatchObject({ id, exam: 1, user_id: BO, callsign: 'EKCH_GND' });
    expect(await stored(id)).toMatchObject({ exam: 1, deleted: 0, user_id: BO, position_id: positionIds.EKCH_GND });
  });

  it('PATCHes moving a booking to another booker or position racing a DELETE: no 404, and a 200 DELETE leaves it deleted', async () => {
    const outcomes: string[] = [];
    for (let round = 0; round < 20; round++) {
      const id = await book();
      const [moveUser, movePosition, removed] = await Promise.all([
        ctx.request({ method: 'PATCH', url: `/api/bookings/${id}`, token: edit, payload: { cid: round % 2 === 0 ? BO : ADA } }),
        ctx.request({
          method: 'PATCH',
          url: `/api/bookings/${id}`,
          token: edit,
          payload: { position: round % 2 === 0 ? 'EKCH_GND' : 'EKCH_DEL' },
        }),
        ctx.request({ method: 'DELETE', url: `/api/bookings/${id}`, token: edit }),
      ]);
      outcomes.push(`${moveUser.statusCode} ${movePosition.statusCode} ${removed.statusCode}`);
      // A PATCH after the DELETE finds a deleted booking (409); before it, it succeeds.
      for (const patch of [moveUser, movePosition]) expect([200, 409], patch.body).toContain(patch.statusCode);
      expect(removed.statusCode, removed.body).toBe(200);
      expect((await stored(id)).deleted).toBe(1);
    }
    expect(outcomes.filter((o) => o.includes('404'))).toEqual([]);
  });
});
