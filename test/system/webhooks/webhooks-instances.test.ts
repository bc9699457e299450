// Several instances on one PostgreSQL (docs/events.md): whichever instance delivers, every event
// reaches a subscription once per successful attempt, and pending deliveries survive restarts.
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { freshDatabaseUrl, TEST_DIALECT } from '../../support/context.js';
import { startServer, type ServerProcess } from '../../support/processes.js';
import { addWebhook, createBooking, prepareDivision, type Received, sleep, startReceiver } from '../../support/webhooks.js';

const N = 40;

describe.runIf(TEST_DIALECT === 'postgres')('webhook deliveries from two instances', () => {
  const env = { DATABASE_URL: freshDatabaseUrl(), WEBHOOK_RETRY_BASE_MS: '200' };
  let servers: ServerProcess[] = [];
  // Every server started, so none outlives the file whatever happens.
  const started: ServerProcess[] = [];
  const startBoth = async () => (servers = await Promise.all([startServer(env), startServer(env)])).forEach((s) => started.push(s));
  afterAll(async () => {
    await Promise.all(started.map((s) => s.stop('SIGKILL')));
  });

  it('delivers every event exactly once per successful attempt, and pending ones after both restart', async () => {
    const { token } = await prepareDivision(env);
    let up = true;
    const okResponses = new Map<string, number>();
    const receiver = await startReceiver((_req, _res, got: Received) => {
      if (!up) return 503;
      const id = got.headers['webhook-id'] as string;
      okResponses.set(id, (okResponses.get(id) ?? 0) + 1);
      return 200;
    });
    await addWebhook(env, receiver.url);
    await startBoth();

    const created = await Promise.all(Array.from({ length: N }, (_, i) => createBooking(servers[i % 2]!.url, token, i)));
    expect(created.every((r) => r.status === 201)).toBe(true);
    await receiver.waitFor(N);
    await sleep(1500);
    expect(okResponses.size).toBe(N);
    expect([...okResponses.values()].every((n) => n === 1)).toBe(true);

    // The receiver goes down; more bookings; every instance stops while deliveries are pending.
    up = false;
    const more = await Promise.all(Array.from({ length: 10 }, (_, i) => createBooking(servers[i % 2]!.url, token, N + i)));
    expect(more.every((r) => r.status === 201)).toBe(true);
    await sleep(500);
    await Promise.all(servers.map((s) => s.stop()));
    expect(okResponses.size).toBe(N);

    up = true;
    await startBoth();
    const deadline = Date.now() + 20_000;
    while (okResponses.size < N + 10 && Date.now() < deadline) await sleep(100);
    await sleep(1500);
    expect(okResponses.size).toBe(N + 10);
    expect([...okResponses.values()].every((n) => n === 1)).toBe(true);

    const db = openDatabase(env.DATABASE_URL);
    try {
      const ids = (await db.kysely.selectFrom('events').select('id').execute()).map((e) => e.id).sort();
      expect([...okResponses.keys()].sort()).toEqual(ids);
      const open = await db.kysely.selectFrom('webhook_deliveries').select('id').where('status', '!=', 'succeeded').execute();
      expect(open).toEqual([]);
    } finally {
      await db.close();
      await receiver.close();
    }
  }, 120_000);
});
