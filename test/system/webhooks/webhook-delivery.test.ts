// Webhook delivery (docs/events.md): Standard Webhooks signatures, retries with the same id and
// growing gaps, commit order per subscription, failure after the last attempt, prompt delivery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { freshDatabaseUrl } from '../../support/context.js';
import { runCli, startServer, type ServerProcess } from '../../support/processes.js';
import { addWebhook, createBooking, prepareDivision, type Receiver, type Received, startReceiver } from '../../support/webhooks.js';

const BASE_MS = 400;
const MAX_ATTEMPTS = 3;

const idOf = (r: Received) => r.headers['webhook-id'] as string;

/** Fails the first event it sees `failures` times (all of them when Infinity), then responds with 200. */
function failingFirst(failures: number) {
  let first: string | undefined;
  let failed = 0;
  return (_req: unknown, _res: unknown, got: Received) => {
    first ??= idOf(got);
    if (idOf(got) === first && failed < failures) {
      failed++;
      return 500;
    }
    return 200;
  };
}

describe('webhook delivery', { timeout: 60_000 }, () => {
  const env = { DATABASE_URL: freshDatabaseUrl(), WEBHOOK_RETRY_BASE_MS: String(BASE_MS), WEBHOOK_MAX_ATTEMPTS: String(MAX_ATTEMPTS) };
  let server: ServerProcess;
  let token: string;
  let ok: Receiver, flaky: Receiver, dead: Receiver, deletesOnly: Receiver;
  const hooks: Record<string, { id: string; secret: string }> = {};
  const bookingIds: number[] = [];

  beforeAll(async () => {
    ({ token } = await prepareDivision(env));
    [ok, flaky, dead, deletesOnly] = await Promise.all([
      startReceiver(),
      startReceiver(failingFirst(2)),
      startReceiver(failingFirst(Infinity)),
      startReceiver(),
    ]);
    hooks.ok = await addWebhook(env, ok.url);
    hooks.flaky = await addWebhook(env, flaky.url);
    hooks.dead = await addWebhook(env, dead.url);
    hooks.deletesOnly = await addWebhook(env, deletesOnly.url, 'booking.deleted');
    server = await startServer(env);
    for (const i of [0, 1]) {
      const r = await createBooking(server.url, token, i);
      expect(r.status).toBe(201);
      bookingIds.push(r.body.booking.id);
    }
  });
  afterAll(async () => {
    await server.stop();
    await Promise.all([ok, flaky, dead, deletesOnly].map((r) => r.close()));
  });

  it('signs every delivery so that a Standard Webhooks verifier accepts it', async () => {
    const got = await ok.waitFor(2);
    const verifier = new Webhook(hooks.ok!.secret);
    for (const [i, r] of got.entries()) {
      const headers = {
        'webhook-id': idOf(r),
        'webhook-timestamp': r.headers['webhook-timestamp'] as string,
        'webhook-signature': r.headers['webhook-signature'] as string,
      };
      const verified = verifier.verify(r.body, headers) as { id: string; type: string; data: { booking: { id: number } } };
      expect(verified).toMatchObject({ id: idOf(r), type: 'booking.created', data: { booking: { id: bookingIds[i] } } });
      expect(r.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    }
    // Another subscription's secret does not verify it.
    expect(() => new Webhook(hooks.flaky!.secret).verify(got[0]!.body, got[0]!.headers as Record<string, string>)).toThrow();
  });

  it('retries with the same webhook-id and growing gaps, holding later events back meanwhile', async () => {
    const got = await flaky.waitFor(4);
    const first = idOf(got[0]!);
    expect(got.slice(0, 3).map(idOf)).toEqual([first, first, first]);
    const second = idOf(got[3]!);
    expect(second).not.toBe(first);
    const gap1 = got[1]!.at - got[0]!.at;
    const gap2 = got[2]!.at - got[1]!.at;
    expect(gap1).toBeGreaterThanOrEqual(BASE_MS);
    expect(gap2).toBeGreaterThanOrEqual(2 * BASE_MS);
    // The second booking's event came in commit order: after the first was delivered.
    expect(JSON.parse(got[0]!.body).data.booking.id).toBe(bookingIds[0]);
    expect(JSON.parse(got[3]!.body).data.booking.id).toBe(bookingIds[1]);
    // Each attempt is signed with its own timestamp.
    for (const r of got) expect(() => new Webhook(hooks.flaky!.secret).verify(r.body, r.headers as Record<string, string>)).not.toThrow();
  });

  it('records a delivery as failed after the last attempt and goes on with the next event', async () => {
    const got = await dead.waitFor(MAX_ATTEMPTS + 1);
    const first = idOf(got[0]!);
    expect(got.slice(0, MAX_ATTEMPTS).map(idOf)).toEqual(Array(MAX_ATTEMPTS).fill(first));
    expect(idOf(got[MAX_ATTEMPTS]!)).not.toBe(first);
    await new Promise((r) => setTimeout(r, 4 * BASE_MS));
    expect(dead.received).toHaveLength(MAX_ATTEMPTS + 1);

    const listed = runCli(['webhook:deliveries', hooks.dead!.id, '--json'], env);
    expect(listed.code).toBe(0);
    const attempts = JSON.parse(listed.stdout) as Array<{
      event_id: string;
      type: string;
      attempt: number;
      status: number | null;
      error: string | null;
    }>;
    expect(attempts.filter((a) => a.event_id === first).map((a) => [a.attempt, a.status])).toEqual([
      [3, 500],
      [2, 500],
      [1, 500],
    ]);
    expect(attempts[0]).toMatchObject({ type: 'booking.created' });
    expect(attempts.find((a) => a.event_id !== first)).toMatchObject({ attempt: 1, status: 200, error: null });
  });

  it('delivers only the types a subscription asked for', async () => {
    expect(deletesOnly.received).toHaveLength(0);
    const res = await fetch(`${server.url}/api/bookings/${bookingIds[0]}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const [got] = await deletesOnly.waitFor(1);
    expect(JSON.parse(got!.body)).toMatchObject({ type: 'booking.deleted', data: { booking: { id: bookingIds[0], deleted: 1 } } });
  });
});
