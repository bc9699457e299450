// A commit wakes the webhook worker at once (contract §10: delivered within a second of the
// commit): on fake timers that never advance, an event still reaches its receivers — no poll, no
// pacing timer is involved — and each subscription gets its events in commit order.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildDivision, buildUser } from '../../support/factories.js';
import { bookingBody, startReceiver, type Receiver } from '../../support/webhooks.js';

describe('webhook delivery after a commit', () => {
  let ctx: TestContext;
  let receivers: Receiver[];

  beforeEach(async () => {
    receivers = await Promise.all([startReceiver(), startReceiver()]);
    ctx = await createTestContext();
    await ctx.load(
      buildDivision({
        users: [buildUser({ id: 1_300_000, first_name: 'Prompt', last_name: 'Post' })],
        positions: [{ callsign: 'EKEV0_TWR', name: 'Event Tower', frequency: '118.100', area: 'Denmark', rating: 'S1' }],
      }),
    );
    const subs = ctx.services.webhooks;
    for (const r of receivers) await subs.add(r.url, null);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'] });
    ctx.services.workers.start();
  });
  afterEach(async () => {
    vi.useRealTimers();
    await ctx.services.workers.stop(0);
    await ctx.close();
    await Promise.all(receivers.map((r) => r.close()));
  });

  it('is made on the wake-up of the commit alone, in commit order per subscription', async () => {
    const token = await ctx.key('edit');
    const ids: number[] = [];
    for (const i of [0, 10, 20]) {
      const res = await ctx.request({
        method: 'POST',
        url: '/api/bookings/create',
        token,
        payload: { ...bookingBody(i), cid: 1_300_000, position: 'EKEV0_TWR' },
      });
      expect(res.statusCode).toBe(201);
      ids.push((res.json() as { booking: { id: number } }).booking.id);
    }
    // No fake timer is ever advanced: only the commits' wake-ups can have caused these.
    for (const r of receivers) {
      await vi.waitFor(() => expect(r.received).toHaveLength(3));
      expect(r.received.map((x) => (JSON.parse(x.body) as { data: { booking: { id: number } } }).data.booking.id)).toEqual(ids);
    }
    expect(vi.getTimerCount()).toBeGreaterThan(0); // the poll waits, never fired
  });
});
