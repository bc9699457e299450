// The webhook commands (docs/events.md), as an operator runs them against a running server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/context.js';
import { openDatabase } from '../../../src/core/db/connection.js';
import { migratedDatabase, readDatabase, tableRows } from '../../support/db-state.js';
import { runCli, runCliAsync, startServer, type ServerProcess } from '../../support/processes.js';
import { createTrainings, importData } from '../../support/seed.js';
import { ADA, buildDivision } from '../../support/factories.js';
import { addWebhook, createBooking, prepareDivision, type Receiver, sleep, startReceiver } from '../../support/webhooks.js';

const oneLine = (text: string) => text.trim().split('\n').length === 1 && text.startsWith('sector: ');

/** What the webhook commands may write: subscriptions, their deliveries and attempts, events, the audit log. */
const WEBHOOK_TABLES = ['webhooks', 'webhook_deliveries', 'webhook_attempts', 'events', 'audit_log'] as const;

/** A subscription's row, read in this process. */
const webhookRow = (url: string, id: string) =>
  readDatabase(url, (db) => db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow());

// Each CLI run starts a Node process and opens the database: a few seconds each on a busy machine.
describe('webhook commands', { timeout: 120_000 }, () => {
  const env = { DATABASE_URL: freshDatabaseUrl() };
  let server: ServerProcess;
  let token: string;
  let receiver: Receiver;
  let kept: { id: string; secret: string };
  let removed: { id: string; secret: string };
  let plainSecret: string;

  beforeAll(async () => {
    ({ token } = await prepareDivision(env));
    receiver = await startReceiver();
    server = await startServer(env);
  });
  afterAll(async () => {
    await server.stop();
    await receiver.close();
  });

  it('adds a subscription, showing its secret once; --json prints one line', () => {
    const json = runCli(['webhook:add', '--url', receiver.url, '--json'], env);
    expect(json.code).toBe(0);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    const parsed = JSON.parse(json.stdout);
    expect(Object.keys(parsed)).toEqual(['id', 'url', 'events', 'secret']);
    expect(parsed).toMatchObject({ url: receiver.url, events: null });
    expect(parsed.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(parsed.secret.slice(6), 'base64')).toHaveLength(32);
    kept = parsed;

    const plain = runCli(['webhook:add', '--url', `${receiver.url}?second`, '--events', 'booking.created,booking.deleted'], env);
    expect(plain.code).toBe(0);
    plainSecret = plain.stdout.trim();
    expect(plainSecret).toMatch(/^whsec_/);
    expect(plain.stderr).toContain('booking.created, booking.deleted');
    removed = { id: /webhook (wh_[0-9a-f]+)/.exec(plain.stderr)![1]!, secret: plainSecret };
  });

  it('lists subscriptions without their secrets', () => {
    const json = runCli(['webhook:list', '--json'], env);
    expect(json.code).toBe(0);
    const list = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(list.map((w) => w.id)).toEqual([kept.id, removed.id]);
    expect(list[1]).toMatchObject({ events: ['booking.created', 'booking.deleted'], status: 'active' });
    for (const w of list) expect(w).not.toHaveProperty('secret');
    const text = runCli(['webhook:list'], env);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(kept.id);
    for (const out of [json.stdout, text.stdout, text.stderr]) {
      expect(out).not.toContain(kept.secret);
      expect(out).not.toContain(plainSecret);
      expect(out).not.toContain('whsec_');
    }
  });

  it('refuses bad input with one line on stderr, changing nothing', async () => {
    const cases = [
      ['webhook:add', '--url', 'ftp://example.org/hook'],
      ['webhook:add', '--url', 'not a url'],
      ['webhook:add', '--url', receiver.url, '--events', 'booking.created,booking.exploded'],
      ['webhook:remove', 'wh_0000000000000000'],
      ['webhook:deliveries', 'wh_0000000000000000'],
      ['webhook:redeliver', 'not-an-event'],
      ['webhook:redeliver', 'evt_00000000000000000000000000'],
    ];
    const before = await tableRows(env.DATABASE_URL, WEBHOOK_TABLES);
    expect(before.webhooks).toHaveLength(2);
    for (const args of cases) {
      const r = runCli(args, env);
      expect(r.code, args.join(' ')).not.toBe(0);
      expect(oneLine(r.stderr), r.stderr).toBe(true);
      expect(await tableRows(env.DATABASE_URL, WEBHOOK_TABLES), args.join(' ')).toEqual(before);
    }
  });

  it('removes a subscription on a running server: later events are not delivered to it', async () => {
    const r = runCli(['webhook:remove', removed.id], env);
    expect(r.code).toBe(0);
    const again = runCli(['webhook:remove', removed.id], env);
    expect(again.code).not.toBe(0);
    expect(oneLine(again.stderr)).toBe(true);

    const created = await createBooking(server.url, token, 0);
    expect(created.status).toBe(201);
    await receiver.waitFor(1);
    await sleep(1000);
    expect(receiver.received.map((x) => x.headers.host && x.body)).toHaveLength(1);
    expect((await webhookRow(env.DATABASE_URL, removed.id)).removed_at).not.toBeNull();
  });

  it('shows the attempts of a subscription, and delivers an event again on request', async () => {
    const listed = runCli(['webhook:deliveries', kept.id, '--json'], env);
    expect(listed.code).toBe(0);
    const [attempt] = JSON.parse(listed.stdout) as Array<{ event_id: string; type: string; attempt: number; status: number; at: string }>;
    expect(attempt).toMatchObject({ type: 'booking.created', attempt: 1, status: 200 });
    expect(attempt!.event_id).toBe(receiver.received[0]!.headers['webhook-id']);
    const text = runCli(['webhook:deliveries', kept.id], env);
    expect(text.stdout).toContain(attempt!.event_id);

    expect(runCli(['webhook:redeliver', attempt!.event_id, '--to', removed.id], env).code).not.toBe(0);
    const again = runCli(['webhook:redeliver', attempt!.event_id, '--to', kept.id], env);
    expect(again.code).toBe(0);
    const got = await receiver.waitFor(2);
    expect(got[1]!.headers['webhook-id']).toBe(attempt!.event_id);
    expect(got[1]!.body).toBe(got[0]!.body);
    // The secret never reaches the server's logs.
    expect(server.logs()).not.toContain(kept.secret);
  });
});

// The dispatcher disables a subscription after WEBHOOK_DISABLE_AFTER_HOURS of failures (proven
// in-process in test/http/webhooks/webhook-disable.test.ts); here the operator's side of it.
describe('a disabled webhook subscription', { timeout: 120_000 }, () => {
  const env = { DATABASE_URL: freshDatabaseUrl() };
  let server: ServerProcess;
  let receiver: Receiver;

  afterAll(async () => {
    await server.stop();
    await receiver.close();
  });

  it('is listed as disabled with its time and reason, and webhook:enable turns it on for events committed from then on', async () => {
    const { token } = await prepareDivision(env);
    receiver = await startReceiver();
    server = await startServer(env);
    const { id } = await addWebhook(env, receiver.url);
    const disabledAt = Date.UTC(2026, 4, 2, 13, 45);
    const db = openDatabase(env.DATABASE_URL);
    try {
      await db.kysely
        .updateTable('webhooks')
        .set({ disabled_at: disabledAt, disabled_reason: 'every attempt failed for 120 hours (last: HTTP 503)' })
        .where('id', '=', id)
        .execute();
    } finally {
      await db.close();
    }

    const json = runCli(['webhook:list', '--json'], env);
    expect(JSON.parse(json.stdout)).toEqual([
      expect.objectContaining({
        id,
        status: 'disabled',
        disabled_at: '2026-05-02T13:45:00.000000Z',
        disabled_reason: 'every attempt failed for 120 hours (last: HTTP 503)',
      }),
    ]);
    const text = runCli(['webhook:list'], env);
    expect(text.stdout).toMatch(/disabled +\S+ +2026-05-02T13:45: every attempt failed for 120 hours \(last: HTTP 503\)/);

    // Committed while disabled: never delivered, even after enabling.
    expect((await createBooking(server.url, token, 0)).status).toBe(201);
    const enabled = runCli(['webhook:enable', id], env);
    expect(enabled.code, enabled.stderr).toBe(0);
    expect(enabled.stderr).toContain(`Enabled webhook ${id}`);
    const after = await createBooking(server.url, token, 10);
    expect(after.status).toBe(201);
    const [got] = await receiver.waitFor(1);
    expect(JSON.parse(got!.body)).toMatchObject({ type: 'booking.created', data: { booking: { id: after.body.booking.id } } });
    expect(await webhookRow(env.DATABASE_URL, id)).toMatchObject({ removed_at: null, disabled_at: null, disabled_reason: null });

    for (const args of [
      ['webhook:enable', id],
      ['webhook:enable', 'wh_nope'],
    ]) {
      const refused = runCli(args, env);
      expect(refused.code).not.toBe(0);
      expect(oneLine(refused.stderr)).toBe(true);
    }
  });
});

// Two operators (or a retried script) at once: each change is decided by its own write, so one
// succeeds and the other says why it changed nothing.
describe('webhook commands run twice at once', { timeout: 120_000 }, () => {
  it('enables once and removes once, with one audit entry each', async () => {
    const env = await migratedDatabase();
    const { id } = await addWebhook(env, 'https://hooks.example.org/sector');
    await readDatabase(env.DATABASE_URL, (db) =>
      db.updateTable('webhooks').set({ disabled_at: Date.now(), disabled_reason: 'every attempt failed' }).where('id', '=', id).execute(),
    );
    const twice = async (command: string) => {
      const results = await Promise.all([runCliAsync([command, id], env), runCliAsync([command, id], env)]);
      expect(results.map((r) => r.code).sort()).toEqual([0, 1]);
      return results.find((r) => r.code === 1)!.stderr;
    };
    expect(await twice('webhook:enable')).toBe(`sector: webhook subscription ${id} is not disabled; nothing was changed\n`);
    expect(await twice('webhook:remove')).toBe(`sector: webhook subscription ${id} is already removed; nothing was changed\n`);
    const audit = await readDatabase(env.DATABASE_URL, (db) =>
      db.selectFrom('audit_log').select('action').where('target', '=', `webhook:${id}`).orderBy('id').execute(),
    );
    expect(audit.map((e) => e.action)).toEqual(['webhook.added', 'webhook.enabled', 'webhook.removed']);
  });

  it('queues an event again for a subscription, or says it is removed, when a removal races the request', async () => {
    const env = await migratedDatabase();
    await importData(env, buildDivision());
    await createTrainings(env, [{ user_id: ADA, area: 'Denmark', ratings: ['S2'] }]);
    const event = await readDatabase(env.DATABASE_URL, (db) => db.selectFrom('events').select('id').executeTakeFirstOrThrow());
    for (let round = 0; round < 3; round++) {
      const { id } = await addWebhook(env, `https://hooks.example.org/sector/${round}`);
      const [redelivered, removed] = await Promise.all([
        runCliAsync(['webhook:redeliver', event.id, '--to', id], env),
        runCliAsync(['webhook:remove', id], env),
      ]);
      expect(removed.code).toBe(0);
      const delivery = await readDatabase(env.DATABASE_URL, (db) =>
        db.selectFrom('webhook_deliveries').select(['status', 'last_error']).where('webhook_id', '=', id).executeTakeFirst(),
      );
      // Queued first (then failed by the removal), or refused as removed: never queued for a removed one.
      if (redelivered.code === 0) expect(delivery).toEqual({ status: 'failed', last_error: 'subscription removed' });
      else {
        expect(redelivered.stderr).toMatch(new RegExp(`^sector: webhook subscription ${id} is removed`));
        expect(delivery).toBeUndefined();
      }
    }
  });
});
