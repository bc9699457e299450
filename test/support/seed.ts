// Set-up of a database that a test then serves or runs the CLI on: done in the test's own process,
// through the services that `import`, `create:apikey`, `webhook:add` and the API's writes call.
// Starting the CLI for set-up cost a second of CPU each time, and hundreds of tests do it; the tests
// of those commands still run them as processes (cli-import, cli-apikeys, webhook-cli).
import { loadConfig } from '../../src/config.js';
import { parseEventFilter } from '../../src/features/events/domain.js';
import { startServices } from '../../src/app/runtime.js';
import type { Db } from '../../src/core/db/connection.js';
import { type AppServices, type ComposedServices, createServices } from '../../src/app/services.js';
import type { TrainingInput } from '../../src/features/trainings/trainings.service.js';

/** The services over env's database (migrated, as every command does first), closed afterwards. */
async function withDatabase<T>(env: Record<string, string>, fn: (services: AppServices) => Promise<T>): Promise<T> {
  const services = await startServices({ ...loadConfig({ ...env, LOG_LEVEL: 'silent', DATA_FEED_URL: 'off' }), metrics: false });
  try {
    return await fn(services);
  } finally {
    await services.close();
  }
}

/** The services over a database a test opened itself (at `url`), as a command would build them. */
export function servicesOver(db: Db, url: string): ComposedServices {
  return createServices({ ...loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', DATA_FEED_URL: 'off' }), metrics: false }, db);
}

/** Imports records (docs/import-format.md) into env's database, as `npx sector import` does. */
export async function importData(env: Record<string, string>, data: unknown): Promise<void> {
  await withDatabase(env, async (services) => {
    await services.imports.run(data, { source: 'division.json' });
  });
}

/** An API key made as `create:apikey` makes one; its token. */
export async function createKey(env: Record<string, string>, name: string, access: 'edit' | 'read-only' = 'edit'): Promise<string> {
  return withDatabase(env, async (services) => {
    const { token } = await services.keys.create({ name, scope: access === 'edit' ? 'edit' : 'read', variant: null, compat: null });
    return token;
  });
}

/** A webhook subscription made as `webhook:add --json` makes one. */
export async function addWebhook(env: Record<string, string>, url: string, events?: string): Promise<{ id: string; secret: string }> {
  return withDatabase(env, async (services) => {
    const w = await services.webhooks.add(url, events === undefined ? null : parseEventFilter(events));
    return { id: w.id, secret: w.secret };
  });
}

/** Trainings made as `POST /api/trainings` makes them: with SMTP_URL and MAIL_FROM in env, each writes its student's mail. */
export async function createTrainings(env: Record<string, string>, trainings: TrainingInput[]): Promise<void> {
  await withDatabase(env, async (services) => {
    for (const training of trainings) await services.trainings.create(training, { kind: 'cli' });
  });
}
