// The databases earlier releases left behind (test/fixtures/releases/<version>/, written by
// `npm run release:dumps`), loaded as they were, and what a database holds, table by table, for
// test/system/core/upgrade.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { freshSchemaName, tempDir } from './context.js';
import { readDatabase } from './db-state.js';
import { ROOT } from './processes.js';

export const RELEASES_DIR = path.join(ROOT, 'test/fixtures/releases');
/** The schema name the PostgreSQL dumps carry; a loaded copy gets a test schema in its place. */
export const DUMP_SCHEMA = 'sector_release';

/** What release.json holds for one database: what that version's commands and API made in it. */
export interface ReleaseDatabase {
  key: { id: string; name: string; token: string };
  /** Null for a version without webhooks. */
  webhook: { id: string; url: string; secret: string } | null;
  /** A booking made and changed through that version's API. */
  booking: number;
}

export interface Release {
  version: string;
  commit: string;
  sqlite: ReleaseDatabase;
  postgres: ReleaseDatabase;
}

/** The releases with dumps, oldest first. */
export function releases(): Release[] {
  const versions = fs.existsSync(RELEASES_DIR) ? fs.readdirSync(RELEASES_DIR) : [];
  return versions
    .map((v) => JSON.parse(fs.readFileSync(path.join(RELEASES_DIR, v, 'release.json'), 'utf8')) as Release)
    .sort((a, b) => a.version.localeCompare(b.version, 'en', { numeric: true }));
}

/** A new database holding `version`'s dump for the dialect, as that version left it (not migrated); its URL. */
export async function loadRelease(version: string, dialect: 'sqlite' | 'postgres'): Promise<string> {
  const dump = fs.readFileSync(path.join(RELEASES_DIR, version, `${dialect}.sql`), 'utf8');
  if (dialect === 'sqlite') {
    const file = path.join(tempDir(), 'sector.db');
    const db = new SQLite(file);
    try {
      db.exec(dump);
    } finally {
      db.close();
    }
    return `sqlite:${file}`;
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const schema = freshSchemaName();
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    // The dump holds one schema; its overlap constraint needs the extension the first migration makes.
    await client.query('create extension if not exists btree_gist schema public').catch((err: unknown) => {
      if ((err as { code?: string }).code !== '23505') throw err; // another worker made it at the same moment
    });
    await client.query(dump.replace(new RegExp(`\\b${DUMP_SCHEMA}\\b`, 'g'), schema));
  } finally {
    await client.end();
  }
  return `${base}${base.includes('?') ? '&' : '?'}schema=${schema}`;
}

/** Every table of the database (SQLite's own excepted) with its columns, in order. */
export function tableColumns(databaseUrl: string): Promise<Map<string, string[]>> {
  return readDatabase(databaseUrl, async (db) => {
    const { rows } = databaseUrl.startsWith('sqlite:')
      ? await sql<{ table: string; column: string }>`
          select m.name as "table", c.name as "column" from sqlite_master m, pragma_table_info(m.name) c
          where m.type = 'table' and m.name not like 'sqlite\\_%' escape '\\' order by m.name, c.cid`.execute(db)
      : await sql<{ table: string; column: string }>`
          select table_name as "table", column_name as "column" from information_schema.columns
          where table_schema = current_schema() order by table_name, ordinal_position`.execute(db);
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.table, [...(out.get(r.table) ?? []), r.column]);
    return out;
  });
}

/** The rows of each table, of the columns named, as JSON arrays; read through Sector's own driver set-up. */
export function rowsOf(databaseUrl: string, tables: ReadonlyMap<string, readonly string[]>): Promise<Map<string, string[]>> {
  return readDatabase(databaseUrl, async (db) => {
    const out = new Map<string, string[]>();
    for (const [table, columns] of tables) {
      const { rows } = await sql<
        Record<string, unknown>
      >`select ${sql.join(columns.map((c) => sql.ref(c)))} from ${sql.table(table)}`.execute(db);
      out.set(
        table,
        rows.map((r) => JSON.stringify(columns.map((c) => r[c]))),
      );
    }
    return out;
  });
}
