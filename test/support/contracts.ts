// What the contract snapshots in docs/ hold: the served OpenAPI document and the migrated schema
// of each database, in a stable order. `npm run contracts` writes them; test/system/core/contracts.test.ts
// fails when they drift.
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'kysely';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config.js';
import { type Db, openDatabase } from '../../src/core/db/connection.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { createServices } from '../../src/app/services.js';

export const DOCS = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../docs');
export const OPENAPI_FILE = path.join(DOCS, 'openapi.json');
export const schemaFile = (dialect: 'sqlite' | 'postgres') => path.join(DOCS, `schema.${dialect}.sql`);

/** The OpenAPI document a freshly started server serves, as the checked-in file holds it. */
export async function servedOpenApi(databaseUrl: string): Promise<string> {
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', RATE_LIMIT: '0' });
  const db = openDatabase(databaseUrl);
  try {
    await migrateToLatest(db);
    const app = await buildApp(createServices(config, db), { logger: false });
    try {
      await app.ready();
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      return `${JSON.stringify(res.json(), null, 2)}\n`;
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
  }
}

/** The migrated schema of `db`, one statement per object, sorted. */
export async function schemaDump(db: Db): Promise<string> {
  if (db.dialect === 'sqlite') {
    const { rows } = await sql<{ sql: string }>`
      select sql from sqlite_master where sql is not null and name not like 'sqlite_%' order by type, name`.execute(db.kysely);
    return rows.map((r) => `${r.sql};\n`).join('\n');
  }
  const schema = db.schema ?? 'public';
  const columns = await sql<{ line: string }>`
    select table_name || '.' || column_name || ' ' || data_type || case when is_nullable = 'NO' then ' not null' else '' end
      || coalesce(' default ' || column_default, '') as line
    from information_schema.columns where table_schema = ${schema} order by table_name, column_name`.execute(db.kysely);
  const constraints = await sql<{ line: string }>`
    select c.conrelid::regclass::text || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) as line
    from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = ${schema} order by 1`.execute(db.kysely);
  const indexes = await sql<{ line: string }>`
    select indexdef as line from pg_indexes where schemaname = ${schema} order by tablename, indexname`.execute(db.kysely);
  const triggers = await sql<{ line: string }>`
    select event_object_table || ' ' || trigger_name || ' ' || action_timing || ' ' || event_manipulation as line
    from information_schema.triggers where trigger_schema = ${schema} order by 1`.execute(db.kysely);
  // The per-test schema name is not part of the contract.
  const strip = (s: string) => s.split(`${schema}.`).join('');
  return [
    '-- columns',
    ...columns.rows.map((r) => r.line),
    '-- constraints',
    ...constraints.rows.map((r) => strip(r.line)),
    '-- indexes',
    ...indexes.rows.map((r) => strip(r.line)),
    '-- triggers',
    ...triggers.rows.map((r) => r.line),
    '',
  ].join('\n');
}

/** The dump of a fresh database at `databaseUrl` after every migration. */
export async function migratedSchema(databaseUrl: string): Promise<string> {
  const db = openDatabase(databaseUrl);
  try {
    await migrateToLatest(db);
    return await schemaDump(db);
  } finally {
    await db.close();
  }
}

export function writeIfChanged(file: string, content: string): void {
  if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== content) fs.writeFileSync(file, content);
}
