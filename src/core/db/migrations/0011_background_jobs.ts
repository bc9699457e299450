import { type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// Scheduled jobs run once across instances: one lease row per job name, taken by a single
// conditional upsert, so whichever instance takes it runs the job and the others wait until the
// lease lapses (a crashed holder's lease lapses too). A webhook subscription whose every attempt
// fails for WEBHOOK_DISABLE_AFTER_HOURS is disabled: failing_since is the first failure after the
// last success, disabled_at/disabled_reason what webhook:list shows.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    // Until then no other instance runs the job: the end of a run under way, or the next run's time.
    .addColumn('lease_until', 'bigint', (c) => c.notNull())
    .addColumn('last_success_at', 'bigint')
    .execute();
  await db.schema.alterTable('webhooks').addColumn('failing_since', 'bigint').execute();
  await db.schema.alterTable('webhooks').addColumn('disabled_at', 'bigint').execute();
  await db.schema.alterTable('webhooks').addColumn('disabled_reason', 'text').execute();
}
