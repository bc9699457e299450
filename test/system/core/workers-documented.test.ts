// The list of background workers in docs/architecture.md is the composition root's: with every
// optional worker configured, createServices registers exactly the workers the diagram names.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { openDatabase } from '../../../src/core/db/connection.js';
import { migrateToLatest } from '../../../src/core/db/migrate.js';
import { createServices } from '../../../src/app/services.js';
import { freshDatabaseUrl, TEST_DIALECT } from '../../support/context.js';
import { ROOT } from '../../support/processes.js';

/** The worker names in the diagram of the doc's "Background workers" section. */
function documentedWorkers(): string[] {
  const text = fs.readFileSync(path.join(ROOT, 'docs/architecture.md'), 'utf8');
  const section = text.slice(text.indexOf('## Background workers'));
  const diagram = /^```\n([\s\S]*?)^```/m.exec(section)![1]!;
  return [...diagram.matchAll(/[├└] ([a-z][a-z-]*)/g)].map((m) => m[1]!);
}

// SQLite is enough: this is about the docs and the composition, not the database.
describe.runIf(TEST_DIALECT === 'sqlite')('the documented workers', () => {
  it('are every worker the composition root registers, each once', async () => {
    const url = freshDatabaseUrl();
    const config = loadConfig({
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      DATA_FEED_URL: 'http://127.0.0.1:9/feed.json',
      SMTP_URL: 'smtp://127.0.0.1:2525',
      MAIL_FROM: 'Sector <sector@example.org>',
      NETWORK_BOOKINGS_URL: 'http://127.0.0.1:9/bookings',
      NETWORK_BOOKINGS_KEY: 'key',
      CORE_API_KEY: 'key',
      DIVISION: 'EUD',
      ACTIVITY_HOURS: '3',
      AUDIT_RETENTION_DAYS: '365',
      DIVISION_API: 'vateud',
      DIVISION_API_KEY: 'key',
      DIVISION_API_URL: 'http://127.0.0.1:9/api',
    });
    const db = openDatabase(url);
    try {
      await migrateToLatest(db);
      const services = createServices(config, db);
      const documented = documentedWorkers();
      expect(new Set(documented).size).toBe(documented.length);
      expect([...services.workers.names].sort()).toEqual([...documented].sort());
    } finally {
      await db.close();
    }
  });
});
