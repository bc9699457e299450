// A real application over a real, fresh database for each test file or test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app/app.js';
import { loadConfig } from '../../src/config.js';
import { openDatabase } from '../../src/core/db/connection.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { createServices, type ComposedServices } from '../../src/app/services.js';
import type { ApiKeyScope } from '../../src/core/db/schema.js';
import type { ScopeRoutes } from '../../src/app/routes.js';
import { inject } from 'vitest';
import { copyDatabase, testSchemaName, urlOfDatabase } from './test-schemas.js';

export interface TestContext {
  app: FastifyInstance;
  services: ComposedServices;
  databaseUrl: string;
  /** Number of SQL statements executed since the last resetQueries(). */
  queries(): number;
  /** Their SQL texts, in order. */
  statements(): string[];
  /** Their parameters, in the same order. */
  parameters(): Array<readonly unknown[]>;
  resetQueries(): void;
  /** Pins the clock seen by the application. */
  setNow(ms: number): void;
  load(data: unknown): Promise<void>;
  key(scope?: ApiKeyScope, extra?: { variant?: 'newer' | 'older'; compat?: 'none' | 'controlcenter'; name?: string }): Promise<string>;
  request(opts: InjectOptions & { token?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

let counter = 0;

export function tempDir(prefix = 'sector-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** An import file (docs/import-format.md) in a new folder; a string is written as it is. */
export function writeImportFile(data: unknown, name = 'import.json'): string {
  const file = path.join(tempDir(), name);
  fs.writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
  return file;
}

/** The database this test run targets: the 'postgres' project sets SECTOR_TEST_DB. */
export const TEST_DIALECT: 'sqlite' | 'postgres' = process.env.SECTOR_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

/**
 * A fresh, empty database: a new SQLite file, or (in the PostgreSQL run) a new schema of
 * TEST_DATABASE_URL, created by the first migration, so runs and test files never collide.
 */
export function freshDatabaseUrl(): string {
  if (TEST_DIALECT === 'postgres') {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error('TEST_DATABASE_URL is not set');
    return `${base}${base.includes('?') ? '&' : '?'}schema=${freshSchemaName()}`;
  }
  return `sqlite:${path.join(tempDir(), 'sector.db')}`;
}

/** A new PostgreSQL schema name owned by this test run (dropped at its end). */
export function freshSchemaName(label = `${process.pid}_${++counter}_${Math.random().toString(36).slice(2, 8)}`): string {
  return testSchemaName(inject('testRunId'), label);
}

// SQLite: each context starts from a copy of one database migrated once per worker, instead of
// running every migration (each commit a disk flush) again for every test.
let sqliteTemplate: Promise<string> | undefined;
async function migratedSqliteTemplate(): Promise<string> {
  const file = path.join(tempDir(), 'template.db');
  const db = openDatabase(`sqlite:${file}`);
  await migrateToLatest(db);
  await db.close(); // the last connection's close moves the write-ahead log into the file
  return file;
}

// PostgreSQL likewise: each context gets a database of its own, copied from one migrated once per worker
// (CREATE DATABASE … TEMPLATE copies files; running the migrations again cost ten times as long).
let postgresTemplate: Promise<string> | undefined;
async function migratedPostgresTemplate(base: string): Promise<string> {
  const name = freshSchemaName(`template_${process.pid}`);
  await copyDatabase(base, name, 'template1');
  const db = openDatabase(urlOfDatabase(base, name));
  await migrateToLatest(db);
  await db.close(); // a database being copied must have no connections
  return name;
}

async function freshMigratedDatabaseUrl(): Promise<string> {
  if (TEST_DIALECT === 'sqlite') {
    const url = freshDatabaseUrl();
    fs.copyFileSync(await (sqliteTemplate ??= migratedSqliteTemplate()), url.slice('sqlite:'.length));
    return url;
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const name = freshSchemaName();
  await copyDatabase(base, name, await (postgresTemplate ??= migratedPostgresTemplate(base)));
  return urlOfDatabase(base, name);
}

export async function createTestContext(
  options: { env?: Record<string, string>; now?: number; routes?: ScopeRoutes } = {},
): Promise<TestContext> {
  const databaseUrl = await freshMigratedDatabaseUrl();
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', RATE_LIMIT: '0', DATA_FEED_URL: 'off', ...options.env });
  let statements: string[] = [];
  let parameters: Array<readonly unknown[]> = [];
  const db = openDatabase(databaseUrl, {
    onQuery: (event) => {
      statements.push(event.query.sql);
      parameters.push(event.query.parameters);
    },
  });
  await migrateToLatest(db);
  let now = options.now ?? Date.now();
  const services = createServices(config, db, () => now);
  const app = await buildApp(services, { logger: false, ...(options.routes ? { routes: options.routes } : {}) });
  await app.ready();

  return {
    app,
    services,
    databaseUrl,
    queries: () => statements.length,
    statements: () => [...statements],
    parameters: () => [...parameters],
    resetQueries: () => {
      statements = [];
      parameters = [];
    },
    setNow: (ms) => {
      now = ms;
    },
    load: async (data) => {
      await services.imports.run(data);
    },
    key: async (scope = 'edit', extra = {}) => {
      const { token } = await services.keys.create({
        name: extra.name ?? `test-key-${++counter}`,
        scope,
        variant: extra.variant ?? null,
        compat: extra.compat ?? null,
      });
      return token;
    },
    request: ({ token, headers, ...opts }) =>
      app.inject({ ...opts, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } }),
    close: async () => {
      await app.close();
      // Workers a test started stop before their database closes.
      await services.workers.stop(0).catch(() => {});
      services.http.close();
      await db.close();
    },
  };
}
