// Retention (docs/events.md): events and delivery attempts older than EVENT_RETENTION_DAYS are
// pruned by the server (at start, then hourly), except events a delivery still waits for.
import { describe, expect, it } from 'vitest';
import { createTestContext } from '../../support/context.js';
import { buildDivision, buildUser } from '../../support/factories.js';
import { startServer } from '../../support/processes.js';
import { WebhookSubscriptionsService } from '../../../src/features/webhooks/subscriptions.service.js';
import { webhookDeliveriesWorker } from '../../../src/features/webhooks/deliveries.worker.js';
import { Workers } from '../../../src/core/workers/workers.js';
import { openDatabase } from '../../../src/core/db/connection.js';
import { bookingBody, sleep, startReceiver } from '../../support/webhooks.js';
import { pruneEvents } from '../../../src/features/events/retention.js';

const DAY = 86_400_000;

describe('event retention', () => {
  it('prunes old events and attempts at start, keeping recent events and ones still pending', async () => {
    const receiver = await startReceiver();
    const old = Date.now() - 3 * DAY;
    const ctx = await createTestContext({ now: old });
    await ctx.load(
      buildDivision({
        users: [buildUser({ id: 1_300_000, first_name: 'Old', last_name: 'Timer' })],
        positions: [{ callsign: 'EKEV0_TWR', name: 'Event Tower', frequency: '118.100', area: 'Denmark', rating: 'S1' }],
      }),
    );
    const subs = new WebhookSubscriptionsService({ ...ctx.services, clock: () => old });
    await subs.add(receiver.url, null);
    // Nobody listens there: its delete event stays pending.
    await subs.add('http://127.0.0.1:9/closed', ['booking.deleted']);
    const token = await ctx.key('edit');
    const create = (i: number) =>
      ctx.request({
        method: 'POST',
        url: '/api/bookings/create',
        token,
        payload: { ...bookingBody(i), cid: 1_300_000, position: 'EKEV0_TWR' },
      });
    const a = (await create(0)).json().booking.id;
    expect((await create(10)).statusCode).toBe(201);
    expect((await ctx.request({ method: 'DELETE', url: `/api/bookings/${a}`, token })).statusCode).toBe(200);

    // Deliver (and record attempts) as of three days ago.
    const deliveries = webhookDeliveriesWorker({
      ...ctx.services,
      options: {
        timeoutMs: 1000,
        retryBaseMs: 10 * DAY,
        maxAttempts: 5,
      },
    });
    const workers = new Workers({ writer: ctx.services.writer, clock: () => old, workers: [deliveries] });
    workers.start();
    await receiver.waitFor(3);
    await sleep(1500);
    await workers.stop();

    ctx.setNow(Date.now());
    expect((await create(20)).statusCode).toBe(201);
    const url = ctx.databaseUrl;
    await ctx.close();

    const server = await startServer({ DATABASE_URL: url, EVENT_RETENTION_DAYS: '1', WEBHOOK_RETRY_BASE_MS: '600000' });
    const db = openDatabase(url);
    try {
      const deadline = Date.now() + 15_000;
      let events = await db.kysely.selectFrom('events').select(['type', 'created_at']).orderBy('seq').execute();
      while (events.length > 2 && Date.now() < deadline) {
        await sleep(200);
        events = await db.kysely.selectFrom('events').select(['type', 'created_at']).orderBy('seq').execute();
      }
      // The old delete still waits for its delivery; the recent create stays; the rest is gone.
      expect(events.map((e) => [e.type, e.created_at < Date.now() - DAY])).toEqual([
        ['booking.deleted', true],
        ['booking.created', false],
      ]);
      const oldAttempts = await db.kysely
        .selectFrom('webhook_attempts')
        .select('id')
        .where('at', '<', Date.now() - DAY)
        .execute();
      expect(oldAttempts).toEqual([]);
    } finally {
      await db.close();
      await server.stop();
      await receiver.close();
    }
  }, 90_000);
  it('keeps old events that an active subscription or the network sync has not taken yet, and only those', async () => {
    const old = Date.now() - 3 * DAY;
    // Network sync configured, but nothing running takes the events in.
    const ctx = await createTestContext({ now: old, env: { NETWORK_BOOKINGS_URL: 'http://127.0.0.1:9/api', NETWORK_BOOKINGS_KEY: 'k' } });
    try {
      await ctx.load(
        buildDivision({
          users: [buildUser({ id: 1_300_001, first_name: 'Old', last_name: 'Timer' })],
          positions: [{ callsign: 'EKEV1_TWR', name: 'Event Tower', frequency: '118.100', area: 'Denmark', rating: 'S1' }],
        }),
      );
      const token = await ctx.key('edit');
      const create = async (i: number) =>
        (
          await ctx.request({
            method: 'POST',
            url: '/api/bookings/create',
            token,
            payload: { ...bookingBody(i), cid: 1_300_001, position: 'EKEV1_TWR' },
          })
        ).json<{ booking: { id: number } }>().booking.id;
      const db = ctx.services.db.kysely;
      const seqs = async () => (await db.selectFrom('events').select('seq').orderBy('seq').execute()).map((e) => e.seq);

      // Owed to the network, which has not taken it: kept.
      await create(0);
      expect(await pruneEvents(ctx.services.writer, 1, Date.now())).toMatchObject({ events: 0 });
      const [owed] = await seqs();
      // Taken by the network sync: pruned.
      await db.updateTable('outbox_cursors').set({ seq: owed! }).where('name', '=', 'network').execute();
      expect(await pruneEvents(ctx.services.writer, 1, Date.now())).toMatchObject({ events: 1 });

      // A subscription added now takes what comes after: an old event not yet queued for it is kept.
      const subs = new WebhookSubscriptionsService({ ...ctx.services, clock: () => old });
      const added = await subs.add('http://127.0.0.1:9/closed', null);
      await create(10);
      const [queued] = await seqs();
      await db.updateTable('outbox_cursors').set({ seq: queued! }).where('name', '=', 'network').execute();
      expect(await pruneEvents(ctx.services.writer, 1, Date.now())).toMatchObject({ events: 0 });
      // Once removed, the subscription holds nothing back.
      await subs.remove(added.id);
      expect(await pruneEvents(ctx.services.writer, 1, Date.now())).toMatchObject({ events: 1 });
      expect(await seqs()).toEqual([]);
    } finally {
      await ctx.close();
    }
  }, 60_000);
});
