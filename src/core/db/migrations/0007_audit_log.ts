import { type Kysely } from 'kysely';
import type { Dialect } from '../connection.js';

// Who changed what, and when: one row per change, written in the change's own transaction.
// before/after hold JSON of the changed fields only. Kept forever unless AUDIT_RETENTION_DAYS prunes it.
export async function up(db: Kysely<any>, dialect: Dialect): Promise<void> {
  const table = db.schema.createTable('audit_log');
  await (
    dialect === 'postgres'
      ? table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('actor_name', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('before', 'text')
    .addColumn('after', 'text')
    .execute();
  // `audit --booking` (newest first) and `audit --since` / retention.
  await db.schema.createIndex('audit_log_target_idx').on('audit_log').columns(['target', 'id']).execute();
  await db.schema.createIndex('audit_log_at_idx').on('audit_log').columns(['at', 'id']).execute();
}
