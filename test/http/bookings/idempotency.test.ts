// Idempotency-Key on the creates (contract §5, "Batches and retries"): a repeat gets the response
// the first request got and creates nothing; another body under the key is 422; a repeat while the first
// runs is 409 with Retry-After; a claim left by a dead process, and a key past 24 hours, are taken over.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, buildDivision, buildPosition, buildUser } from '../../support/factories.js';
import { Workers } from '../../../src/core/workers/workers.js';
import { idempotencyKeysWorker } from '../../../src/features/bookings/idempotency-keys.worker.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const HOUR = 3_600_000;
const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

const DATA = buildDivision({
  users: [buildUser({ id: ADA, first_name: 'Ada', last_name: 'Lind', rating: 'C1' })],
  positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_DEL')],
});

let dayIndex = 0;
const nextDay = () => {
  const d = new Date(Date.UTC(2026, 2, 1) + dayIndex++ * 86_400_000);
  return `${d.getUTCDate()}/${d.getUTCMonth() + 1}/${d.getUTCFullYear()}`;
};

describe('Idempotency-Key', () => {
  let ctx: TestContext;
  let edit: string;
  let now = NOW;

  const create = (payload: object, key?: string, token = edit) =>
    ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token,
      payload,
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
  const batch = (bookings: object[], key?: string) =>
    ctx.request({
      method: 'POST',
      url: '/api/bookings/batch',
      token: edit,
      payload: { bookings },
      headers: key === undefined ? {} : { 'idempotency-key': key },
    });
  const booking = (date: string, start_at = '10:00', end_at = '12:00', position = 'EKCH_TWR') => ({
    cid: ADA,
    date,
    start_at,
    end_at,
    position,
  });
  const count = async (table: 'bookings' | 'events' | 'audit_log' | 'idempotency_keys') =>
    Number(
      (
        await ctx.services.db.kysely
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const setNow = (ms: number) => {
    now = ms;
    ctx.setNow(ms);
  };

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(DATA);
    edit = await ctx.key('edit');
  });
  afterAll(() => ctx.close());

  it('responds to a repeated create as to the first, with Idempotent-Replayed, and creates nothing more', async () => {
    const body = booking(nextDay());
    const first = await create(body, 'create-1');
    expect(first.statusCode).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const counts = [await count('bookings'), await count('events'), await count('audit_log')];

    // The same request in another form (a form body, keys in another order): the same fields, the same request.
    const again = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token: edit,
      headers: { ...FORM, 'idempotency-key': 'create-1' },
      payload: new URLSearchParams({
        position: 'ekch_twr',
        end_at: '12:00',
        start_at: '10:00',
        date: body.date,
        cid: String(ADA),
      }).toString(),
    });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toMatch(/^application\/json/);
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.body).toBe(first.body);
    expect([await count('bookings'), await count('events'), await count('audit_log')]).toEqual(counts);

    // Without the header a repeat is a new create (and so an overlap).
    expect((await create(body)).statusCode).toBe(409);
  });

  it('returns 422 for the same key with another body, naming the header', async () => {
    const date = nextDay();
    expect((await create(booking(date), 'create-2')).statusCode).toBe(201);
    const res = await create(booking(date, '14:00', '15:00'), 'create-2');
    expect(res.statusCode).toBe(422);
    expect(Object.keys(res.json().errors)).toEqual(['idempotency-key']);
    // Nor may a batch take the key a create used.
    expect((await batch([booking(date)], 'create-2')).statusCode).toBe(422);
  });

  it("keeps each API key's keys apart", async () => {
    const date = nextDay();
    const other = await ctx.key('edit');
    expect((await create(booking(date), 'shared')).statusCode).toBe(201);
    const res = await create(booking(date, '14:00', '15:00'), 'shared', other);
    expect(res.statusCode).toBe(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it('replays a batch, and its stored response in the Control Center profile', async () => {
    const date = nextDay();
    const items = [booking(date), booking(date, '10:00', '12:00', 'EKCH_DEL')];
    const first = await batch(items, 'roster-1');
    expect(first.statusCode).toBe(201);
    const before = await count('bookings');
    const again = await batch(items, 'roster-1');
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await count('bookings')).toBe(before);

    const compat = await ctx.key('edit', { compat: 'controlcenter' });
    const day2 = nextDay();
    const send = () =>
      ctx.request({
        method: 'POST',
        url: '/api/bookings/create',
        token: compat,
        payload: booking(day2),
        headers: { 'idempotency-key': 'cc-1' },
      });
    const made = await send();
    expect(made.statusCode).toBe(200);
    const replayed = await send();
    expect([replayed.statusCode, replayed.headers['idempotent-replayed'], replayed.body]).toEqual([200, 'true', made.body]);
  });

  it('does not keep a refusal: a 4xx lets go of the key, so a retry once the cause is gone is processed', async () => {
    const date = nextDay();
    const blocking = (await create(booking(date, '09:00', '11:00'))).json().booking.id;
    const keysBefore = await count('idempotency_keys');
    const refused = await batch([booking(date, '12:00', '13:00'), booking(date)], 'roster-2');
    expect(refused.statusCode).toBe(409);
    expect(refused.json().index).toBe(1);
    expect(await count('idempotency_keys')).toBe(keysBefore);
    expect((await ctx.request({ method: 'DELETE', url: `/api/bookings/${blocking}`, token: edit })).statusCode).toBe(200);
    const retried = await batch([booking(date, '12:00', '13:00'), booking(date)], 'roster-2');
    expect(retried.statusCode).toBe(201);
    expect(retried.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a malformed key: 1 to 255 visible ASCII characters', async () => {
    const date = nextDay();
    for (const key of ['has space', 'x'.repeat(256), 'tab\there', 'é']) {
      const res = await create(booking(date), key);
      expect(res.statusCode, key).toBe(422);
      expect(Object.keys(res.json().errors)).toEqual(['idempotency-key']);
    }
    expect((await create(booking(date), '~'.repeat(255))).statusCode).toBe(201);
  });

  it('returns 409 with Retry-After while the first request runs; a claim a dead process left is taken over after a minute', async () => {
    const body = booking(nextDay());
    const claimedAt = now;
    const first = await create(body, 'dead-1');
    expect(first.statusCode).toBe(201);
    // What a process killed mid-request leaves: its claim (committed on its own), no response, no booking.
    await ctx.services.db.kysely
      .updateTable('idempotency_keys')
      .set({ state: 'running', status: null, response_body: null })
      .where('key', '=', 'dead-1')
      .execute();
    expect((await ctx.request({ method: 'DELETE', url: first.headers.location!, token: edit })).statusCode).toBe(200);
    const live = () => ctx.request({ method: 'GET', url: '/api/bookings', token: edit }).then((r) => r.json().length as number);
    const liveBefore = await live();

    const running = await create(body, 'dead-1');
    expect(running.statusCode).toBe(409);
    expect(running.headers['retry-after']).toBe('1');
    setNow(claimedAt + 59_999);
    expect((await create(body, 'dead-1')).statusCode).toBe(409);
    // Another body is still another request, whatever the claim's state.
    expect((await create(booking(nextDay()), 'dead-1')).statusCode).toBe(422);
    expect(await live()).toBe(liveBefore);

    setNow(claimedAt + 60_000);
    const taken = await create(body, 'dead-1');
    expect(taken.statusCode, taken.body).toBe(201);
    const replay = await create(body, 'dead-1');
    expect([replay.statusCode, replay.headers['idempotent-replayed'], replay.body]).toEqual([201, 'true', taken.body]);
    expect(await live()).toBe(liveBefore + 1);
  });

  it('treats a key older than 24 hours as new, and the worker prunes expired keys', async () => {
    const date = nextDay();
    const claimedAt = now;
    expect((await create(booking(date, '06:00', '07:00'), 'old-1')).statusCode).toBe(201);
    setNow(claimedAt + 24 * HOUR - 1);
    expect((await create(booking(date, '07:00', '08:00'), 'old-1')).statusCode).toBe(422);
    setNow(claimedAt + 24 * HOUR);
    const fresh = await create(booking(date, '07:00', '08:00'), 'old-1');
    expect(fresh.statusCode).toBe(201);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect((await create(booking(date, '08:00', '09:00'), 'young-1')).statusCode).toBe(201);

    // A day less a millisecond on, the keys made now are kept and every older one goes.
    const keys = () => ctx.services.db.kysely.selectFrom('idempotency_keys').select('key').orderBy('key').execute();
    expect((await keys()).length).toBeGreaterThan(2);
    setNow(now + 24 * HOUR - 1);
    const workers = new Workers({ writer: ctx.services.writer, clock: () => now, workers: [idempotencyKeysWorker(ctx.services)] });
    workers.start();
    try {
      await expect.poll(keys, { timeout: 10_000, interval: 50 }).toEqual([{ key: 'old-1' }, { key: 'young-1' }]);
    } finally {
      await workers.stop();
    }
  });
});
