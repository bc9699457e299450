// Loads a division into a database already migrated, through the services `npx sector import` uses.
import { loadConfig } from '../../src/config.js';
import type { Db } from '../../src/core/db/connection.js';
import { createServices } from '../../src/app/services.js';

export async function importDivision(db: Db, databaseUrl: string, data: unknown, now: number): Promise<void> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', DATA_FEED_URL: 'off' });
  await createServices({ ...config, metrics: false }, db, () => now).imports.run(data);
}
