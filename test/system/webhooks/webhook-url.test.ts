// webhook:add refuses URLs with control characters or whitespace, raw or %-encoded (contract §10):
// one line on stderr, a non-zero exit, nothing stored. Every hostile URL goes through the check the
// command runs (WebhookSubscriptionsService.add, on the real database); a few of each kind go through the
// CLI as a process as well.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../../src/core/db/connection.js';
import { migrateToLatest } from '../../../src/core/db/migrate.js';
import { webhookUrlProblem } from '../../../src/features/events/domain.js';
import { WebhookError } from '../../../src/features/webhooks/subscriptions.service.js';
import { servicesOver } from '../../support/seed.js';
import { freshDatabaseUrl } from '../../support/context.js';
import { tableRows } from '../../support/db-state.js';
import { runCli } from '../../support/processes.js';

const HOSTILE = [
  'http://example.org/hook\r\nX-Injected: 1',
  'http://example.org/hook\n',
  'http://example.org/ho\tok',
  'http://example.org/\u001b]0;owned\u0007',
  'http://example.org/\u001b[31mred',
  ' http://example.org/hook',
  'http://example.org/hook ',
  'http://example.org/a b',
  'http://example.org/\u00a0',
  'http://example.org/\u2028',
  'http://example.org/\u202egnp.kooh',
  'http://example.org/hook%0d%0aX-Injected:%201',
  'http://example.org/hook%09',
  'http://example.org/hook?x=%1B%5B31m',
  'http://example.org/hook?x=%C2%85',
  'http://example.org/hook?x=%20',
  'http://example.org/hook?x=%E2%80%AE',
  'http://example.org/hook?x=%FF%0A',
];

/** Through the CLI too: a raw CR LF, a raw escape sequence, a %-encoded CR LF, a leading space. */
const BY_PROCESS = [HOSTILE[0]!, HOSTILE[3]!, HOSTILE[11]!, HOSTILE[5]!];

/** What webhook:add may write: the subscription, its audit entry, deliveries. */
const WRITTEN = ['webhooks', 'audit_log', 'events', 'webhook_deliveries', 'webhook_attempts'] as const;

/** Anything a terminal would act on (the final line feed of a message aside). */
const RAW = /[\u0000-\u001f\u007f-\u009f\u202e]/;

describe('webhook:add and hostile URLs', { timeout: 180_000 }, () => {
  const env = { DATABASE_URL: freshDatabaseUrl() };
  let db: Db;
  beforeAll(async () => {
    db = openDatabase(env.DATABASE_URL);
    await migrateToLatest(db);
  });
  afterAll(() => db.close());

  it('the check webhook:add runs refuses every hostile URL with one printable line, storing nothing', async () => {
    const subscriptions = servicesOver(db, env.DATABASE_URL).webhooks;
    const before = await tableRows(env.DATABASE_URL, WRITTEN);
    expect(before.webhooks).toEqual([]);
    for (const url of HOSTILE) {
      expect(webhookUrlProblem(url), JSON.stringify(url)).toMatch(/control characters or whitespace/);
      const refused = await subscriptions.add(url, null).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refused, JSON.stringify(url)).toBeInstanceOf(WebhookError);
      const message = (refused as WebhookError).message;
      expect(message, JSON.stringify(url)).toMatch(/control characters or whitespace/);
      // One line, and nothing of the URL reaches the terminal raw.
      expect(message.split('\n'), JSON.stringify(url)).toHaveLength(1);
      expect(message, JSON.stringify(url)).not.toMatch(RAW);
      expect(await tableRows(env.DATABASE_URL, WRITTEN), JSON.stringify(url)).toEqual(before);
    }
  });

  it('refuses every URL with a control character or whitespace, with one line, storing nothing', async () => {
    const before = await tableRows(env.DATABASE_URL, WRITTEN);
    for (const url of BY_PROCESS) {
      const r = runCli(['webhook:add', '--url', url, '--json'], env);
      expect(r.code, JSON.stringify(url)).not.toBe(0);
      expect(r.stdout, JSON.stringify(url)).toBe('');
      expect(r.stderr.trim().split('\n'), JSON.stringify(url)).toHaveLength(1);
      expect(r.stderr, JSON.stringify(url)).toMatch(/control characters or whitespace/);
      // Nothing of the URL reaches the terminal raw.
      expect(r.stderr.slice(0, -1), JSON.stringify(url)).not.toMatch(RAW);
      expect(await tableRows(env.DATABASE_URL, WRITTEN), JSON.stringify(url)).toEqual(before);
    }
    expect(before.webhooks).toEqual([]);
    // The same URL without them is taken.
    const ok = runCli(['webhook:add', '--url', 'http://example.org/hook?x=%41', '--json'], env);
    expect(ok.code, ok.stderr).toBe(0);
    const after = await tableRows(env.DATABASE_URL, ['webhooks']);
    expect(after.webhooks).toHaveLength(1);
    expect(JSON.parse(after.webhooks[0]!)).toMatchObject({ id: JSON.parse(ok.stdout).id, url: 'http://example.org/hook?x=%41' });
  });
});
