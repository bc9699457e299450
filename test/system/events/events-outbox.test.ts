// The outbox (docs/events.md): an event is written in the transaction of the change it describes.
// A refused write publishes nothing; an acknowledged one survives a SIGKILL and is delivered after a restart.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { freshDatabaseUrl, tempDir } from '../../support/context.js';
import { runCli, startServer, type ServerProcess } from '../../support/processes.js';
import { addWebhook, bookingBody, createBooking, prepareDivision, type Receiver, startReceiver, USERS } from '../../support/webhooks.js';

async function storedEvents(url: string) {
  const db = openDatabase(url);
  try {
    return await db.kysely.selectFrom('events').select(['seq', 'id', 'type', 'booking_id', 'body']).orderBy('seq').execute();
  } finally {
    await db.close();
  }
}

// Each test prepares its database with the CLI (a few seconds per run on a busy machine).
describe('the event outbox', { timeout: 120_000 }, () => {
  let server: ServerProcess | undefined;
  let receiver: Receiver | undefined;
  afterEach(async () => {
    await server?.stop('SIGKILL');
    await receiver?.close();
    server = receiver = undefined;
  });

  it('publishes nothing for refused writes (409, 422) and one event per acknowledged change', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const { token } = await prepareDivision(env);
    server = await startServer(env);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };

    const created = await createBooking(server.url, token, 0);
    expect(created.status).toBe(201);
    // The same slot again: refused by the database inside the transaction.
    expect((await createBooking(server.url, token, 0)).status).toBe(409);
    const invalid = await fetch(`${server.url}/api/bookings/create`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ ...bookingBody(1), position: 'NOPE_TWR' }),
    });
    expect(invalid.status).toBe(422);
    const id = created.body.booking.id;
    expect(
      (await fetch(`${server.url}/api/bookings/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(200);
    expect(
      (await fetch(`${server.url}/api/bookings/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } })).status,
    ).toBe(409);

    const events = await storedEvents(env.DATABASE_URL);
    expect(events.map((e) => [e.type, e.booking_id])).toEqual([
      ['booking.created', id],
      ['booking.deleted', id],
    ]);
    const deleted = JSON.parse(events[1]!.body);
    expect(deleted).toMatchObject({ id: events[1]!.id, type: 'booking.deleted', data: { booking: { id, deleted: 1 } } });
    expect(deleted.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(Object.keys(deleted)).toEqual(['id', 'type', 'timestamp', 'data']);
    // data.booking is the full form as the API returns it.
    const returned = (await (
      await fetch(`${server.url}/api/bookings/${id}`, { headers: { authorization: `Bearer ${token}` } })
    ).json()) as object;
    expect(deleted.data.booking).toEqual(returned);
  });

  it('keeps and delivers an acknowledged change when the server is killed right after its 2xx', async () => {
    // A delivery the killed server had claimed is taken over once its claim (the webhook timeout
    // plus a margin) lapses: a short timeout keeps that wait short; the receiver responds at once.
    const env = { DATABASE_URL: freshDatabaseUrl(), WEBHOOK_RETRY_BASE_MS: '100', WEBHOOK_TIMEOUT_MS: '1000' };
    const { token } = await prepareDivision(env);
    receiver = await startReceiver(() => 503);
    await addWebhook(env, receiver.url);
    server = await startServer(env);

    const created = await createBooking(server.url, token, 7);
    expect(created.status).toBe(201);
    await server.stop('SIGKILL');

    const events = await storedEvents(env.DATABASE_URL);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'booking.created', booking_id: created.body.booking.id });

    receiver.setBehaviour(() => 204);
    const before = receiver.received.length;
    server = await startServer(env);
    const got = await receiver.waitFor(before + 1);
    const last = got.at(-1)!;
    expect(last.headers['webhook-id']).toBe(events[0]!.id);
    expect(JSON.parse(last.body).data.booking.id).toBe(created.body.booking.id);
  });

  it('publishes the changes of an import: created, updated and deleted bookings', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    await prepareDivision(env);
    const file = path.join(tempDir(), 'bookings.json');
    const write = (bookings: object[]) => fs.writeFileSync(file, JSON.stringify({ bookings }));
    const slot = (h: number) => ({
      time_start: `2031-05-01 ${String(h).padStart(2, '0')}:00:00`,
      time_end: `2031-05-01 ${String(h + 1).padStart(2, '0')}:00:00`,
    });
    write([
      { user_id: USERS[0], callsign: 'EKEV0_TWR', ...slot(8) },
      { id: 500, user_id: USERS[1], callsign: 'EKEV1_TWR', ...slot(8) },
      { id: 501, user_id: USERS[2], callsign: 'EKEV2_TWR', ...slot(8) },
    ]);
    expect(runCli(['import', file], env).code).toBe(0);
    write([
      { id: 500, ...slot(10) },
      { id: 501, deleted: true },
    ]);
    expect(runCli(['import', file], env).code).toBe(0);
    // A refused import publishes nothing.
    write([{ id: 500, callsign: 'NOPE_TWR' }]);
    expect(runCli(['import', file], env).code).not.toBe(0);

    const events = await storedEvents(env.DATABASE_URL);
    const summary = events.map((e) => [e.type, e.booking_id]);
    expect(summary.slice(0, 3)).toEqual(
      expect.arrayContaining([
        ['booking.created', 500],
        ['booking.created', 501],
      ]),
    );
    expect(summary.slice(0, 3).filter(([t]) => t === 'booking.created')).toHaveLength(3);
    expect(summary.slice(3)).toEqual([
      ['booking.updated', 500],
      ['booking.deleted', 501],
    ]);
    const updated = JSON.parse(events[3]!.body);
    expect(updated.data.booking).toMatchObject({ id: 500, time_start: '2031-05-01 10:00:00', deleted: 0 });
  });
});
