// A receiver that stays dead (contract §10): after WEBHOOK_DISABLE_AFTER_HOURS of failed attempts
// the subscription is disabled, its waiting deliveries recorded as failed so retention prunes their
// events, and webhook:enable turns it back on for events committed from then on. In-process, on
// the test's clock: every attempt is made by waking the dispatcher and waiting for it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pruneEvents } from '../../../src/features/events/retention.js';
import { webhookDeliveriesWorker } from '../../../src/features/webhooks/deliveries.worker.js';
import { Workers } from '../../../src/core/workers/workers.js';
import { WebhookSubscriptionsService } from '../../../src/features/webhooks/subscriptions.service.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildDivision, buildUser } from '../../support/factories.js';
import { bookingBody, startReceiver, type Receiver } from '../../support/webhooks.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe('a webhook receiver that stays dead', () => {
  let ctx: TestContext;
  let receiver: Receiver;
  let now = Date.UTC(2026, 2, 1, 9, 0, 0);
  let workers: Workers;
  let subs: WebhookSubscriptionsService;
  let token: string;
  const warnings: Array<{ obj: object; msg: string }> = [];
  const disabled: string[] = [];

  beforeEach(async () => {
    now = Date.UTC(2026, 2, 1, 9, 0, 0);
    warnings.length = 0;
    disabled.length = 0;
    receiver = await startReceiver(() => 503);
    ctx = await createTestContext({ now });
    await ctx.load(
      buildDivision({
        users: [buildUser({ id: 1_300_000, first_name: 'Dead', last_name: 'Letter' })],
        positions: [{ callsign: 'EKEV0_TWR', name: 'Event Tower', frequency: '118.100', area: 'Denmark', rating: 'S1' }],
      }),
    );
    token = await ctx.key('edit');
    subs = new WebhookSubscriptionsService({ ...ctx.services, clock: () => now });
    // Two hours, as an operator may write it; retries every minute, 100 attempts per delivery.
    const deliveries = webhookDeliveriesWorker({
      ...ctx.services,
      options: {
        timeoutMs: 2000,
        retryBaseMs: 60_000,
        maxAttempts: 100,
        disableAfterMs: 2 * HOUR,
        pollMs: 3_600_000,
        onDisabled: (id) => disabled.push(id),
      },
    });
    workers = new Workers({ writer: ctx.services.writer, clock: () => now, workers: [deliveries] });
    workers.start({ info() {}, warn: (obj, msg) => void warnings.push({ obj, msg }), error() {} });
  });
  afterEach(async () => {
    await workers.stop();
    await ctx.close();
    await receiver.close();
  });

  let slot = 0;
  const create = async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/bookings/create',
      token,
      payload: { ...bookingBody(slot++ * 10), cid: 1_300_000, position: 'EKEV0_TWR' },
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  /** Moves the clock on and lets the dispatcher make whatever attempts are due. */
  const at = async (ms: number) => {
    now += ms;
    ctx.setNow(now);
    workers.wake('webhook-deliveries');
    await workers.settled();
  };
  const deliveries = (webhookId: string) =>
    ctx.services.db.kysely
      .selectFrom('webhook_deliveries')
      .select(['event_id', 'status', 'last_error'])
      .where('webhook_id', '=', webhookId)
      .orderBy('id')
      .execute();

  it('disables it once every attempt has failed for the configured time, and prunes what it waited for', async () => {
    const dead = await subs.add(receiver.url, null);
    await create();
    await create();
    await at(0);
    expect(receiver.received).toHaveLength(1);
    await at(HOUR);
    expect((await subs.list())[0]).toMatchObject({ disabled_at: null });
    await at(HOUR - 1);
    expect((await subs.list())[0]).toMatchObject({ disabled_at: null });
    expect(disabled).toEqual([]);

    await at(5 * 60_000); // the next retry, two hours and more after the first failure
    expect(receiver.received).toHaveLength(4);
    const [listed] = await subs.list();
    expect(listed).toMatchObject({ id: dead.id, removed_at: null, disabled_at: now });
    expect(listed!.disabled_reason).toMatch(/^every attempt failed for 2 hours \(last: HTTP 503/);
    expect(disabled).toEqual([dead.id]);
    expect(warnings.map((w) => w.msg)).toEqual([expect.stringContaining(`webhook:enable ${dead.id}`)]);
    expect(await deliveries(dead.id)).toEqual([
      expect.objectContaining({ status: 'failed', last_error: 'subscription disabled' }),
      expect.objectContaining({ status: 'failed', last_error: 'subscription disabled' }),
    ]);

    // Nothing more is queued for it, and retention is free to prune every event it never got.
    await create();
    await at(HOUR);
    expect(receiver.received).toHaveLength(4);
    expect(await deliveries(dead.id)).toHaveLength(2);
    expect(await pruneEvents(ctx.services.writer, 1, now + 2 * DAY)).toMatchObject({ events: 3 });

    // Turned back on: events committed from then on are delivered, none from before.
    await create();
    const enabled = await subs.enable(dead.id);
    expect(enabled).toMatchObject({ disabled_at: null, disabled_reason: null });
    await expect(subs.enable(dead.id)).rejects.toThrow(`webhook subscription ${dead.id} is not disabled`);
    receiver.setBehaviour(() => 204);
    await create();
    await at(0);
    expect(receiver.received).toHaveLength(5);
    // (the failed deliveries went with their events)
    expect(await deliveries(dead.id)).toEqual([
      expect.objectContaining({ status: 'succeeded', event_id: receiver.received[4]!.headers['webhook-id'] }),
    ]);
  });

  it('starts counting again after any attempt that succeeds', async () => {
    const flaky = await subs.add(receiver.url, null);
    await create();
    await at(0); // fails: the run of failures starts
    await at(90 * 60_000); // fails
    receiver.setBehaviour(() => 200);
    await at(20 * 60_000); // succeeds
    receiver.setBehaviour(() => 503);
    await create();
    await at(20 * 60_000); // fails: a new run starts here
    await at(HOUR);
    await at(HOUR - 60_000);
    expect(receiver.received).toHaveLength(6);
    expect((await subs.list())[0]).toMatchObject({ id: flaky.id, disabled_at: null });
    await at(5 * 60_000);
    expect(receiver.received).toHaveLength(7);
    expect((await subs.list())[0]).toMatchObject({ id: flaky.id, disabled_at: now });
  });
});
