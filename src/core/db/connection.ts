import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type SQLite from 'better-sqlite3';
import type pg from 'pg';
import { CompiledQuery, Kysely, SqliteDialect, type LogEvent, type SqliteDatabase } from 'kysely';
import { SearchPathPostgresDialect } from './postgres-dialect.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

// A process uses one database: the other's driver is never loaded (each is dozens of modules of a
// CLI command's start-up).
const load = createRequire(import.meta.url);

/** A handle to run queries on: the database itself or an open transaction (services pass it to repositories). */
export type Executor = Kysely<Database>;

export interface DatabaseOptions {
  poolSize?: number;
  statementTimeoutMs?: number;
  /** SQLite synchronous pragma (default FULL). */
  sqliteSynchronous?: 'FULL' | 'NORMAL';
  /** Called for every executed statement (tests count statements with it). */
  onQuery?: (event: LogEvent) => void;
}

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /** PostgreSQL schema named by ?schema= in the URL (created by the migrations), else null. */
  schema: string | null;
  /** SQLite's transaction control (src/core/db/transaction.ts); null on PostgreSQL. */
  sqlite: SqliteControl | null;
  /** Calls listener after every statement with its duration (metrics); cheap when none is added. */
  addQueryListener(listener: (event: QueryTiming) => void): void;
  close(): Promise<void>;
}

/** What a query listener learns of each statement. */
export interface QueryTiming {
  sql: string;
  durationMs: number;
  failed: boolean;
}

/**
 * BEGIN IMMEDIATE, COMMIT and ROLLBACK on statements prepared once, as better-sqlite3's own
 * transactions do: preparing them for every write cost more than the write's own statements.
 */
export interface SqliteControl {
  /** Takes the write lock, or throws SQLITE_BUSY at once: the wait happens between attempts, never inside the call. */
  beginImmediate(): void;
  commit(): void;
  rollback(): void;
}

function sqliteControl(raw: SQLite.Database, log: (event: LogEvent) => void): SqliteControl {
  // Each statement is logged like Kysely's own (query listeners and metrics see every statement).
  const statement = (text: string) => {
    const prepared = raw.prepare(text);
    const query = CompiledQuery.raw(text);
    return () => {
      const started = performance.now();
      try {
        if (prepared.reader) prepared.get();
        else prepared.run();
      } catch (error) {
        log({ level: 'error', error, query, queryDurationMillis: performance.now() - started });
        throw error;
      }
      log({ level: 'query', query, queryDurationMillis: performance.now() - started });
    };
  };
  const [noWait, wait, begin, commit, rollback] = [
    'PRAGMA busy_timeout = 0',
    'PRAGMA busy_timeout = 5000',
    'BEGIN IMMEDIATE',
    'COMMIT',
    'ROLLBACK',
  ].map(statement) as [() => void, () => void, () => void, () => void, () => void];
  return {
    beginImmediate: () => {
      noWait();
      try {
        begin();
      } finally {
        wait();
      }
    },
    commit,
    rollback,
  };
}

/** How many SQLite statements stay prepared (Python's sqlite3 keeps 128 by default). */
const KEPT_STATEMENTS = 100;
/** Longer texts are many rows' values at once (imports, batches): rare, and large to keep. */
const LONGEST_KEPT_TEXT = 2_000;

/**
 * Kysely's SQLite driver prepares every statement it runs; this keeps the last ones run prepared by
 * their text, as drivers commonly do. SQLite prepares a kept statement again itself when the
 * schema changes.
 */
function keepStatements(raw: SQLite.Database): SqliteDatabase {
  // In order of last use (a Map iterates in insertion order): each run moves its text to the end.
  const kept = new Map<string, SQLite.Statement>();
  return {
    close: () => raw.close(),
    prepare(text) {
      if (text.length > LONGEST_KEPT_TEXT) return raw.prepare(text);
      let statement = kept.get(text);
      if (statement === undefined) {
        statement = raw.prepare(text);
        // Lists of varying length make new texts: the text run least recently makes room.
        if (kept.size >= KEPT_STATEMENTS) kept.delete(kept.keys().next().value!);
      } else kept.delete(text);
      kept.set(text, statement);
      return statement;
    },
  };
}

export class DatabaseUrlError extends Error {}

// Creates the folder one level at a time: recursive mkdir spins forever where a folder is missing
// yet cannot be created (under /proc).
function ensureFolder(dir: string): void {
  const fail = (why: string) => new DatabaseUrlError(`cannot create the folder ${dir} of the SQLite database in DATABASE_URL: ${why}`);
  const missing: string[] = [];
  for (let current = dir; ; current = path.dirname(current)) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(current);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // ENOTDIR: a file is in the way further up, which the next step names.
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw fail(code ?? (err as Error).message);
      missing.push(current);
      if (path.dirname(current) === current) break;
      continue;
    }
    if (!stat.isDirectory()) throw fail(`${current} is not a folder`);
    break;
  }
  for (const folder of missing.reverse()) {
    try {
      fs.mkdirSync(folder);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // Another process may create it at the same moment.
      if (code !== 'EEXIST') throw fail(code ?? (err as Error).message);
    }
  }
}

export function openDatabase(url: string, options: DatabaseOptions = {}): Db {
  const listeners: Array<(event: LogEvent) => void> = options.onQuery ? [options.onQuery] : [];
  const log = (event: LogEvent) => {
    for (const listener of listeners) listener(event);
  };
  const addQueryListener = (listener: (event: QueryTiming) => void) =>
    void listeners.push((event) =>
      listener({ sql: event.query.sql, durationMs: event.queryDurationMillis, failed: event.level === 'error' }),
    );

  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file === '') throw new DatabaseUrlError('DATABASE_URL sqlite: needs a path or :memory:');
    if (file !== ':memory:') ensureFolder(path.dirname(path.resolve(file)));
    const raw = new (load('better-sqlite3') as typeof SQLite)(file);
    // WAL: readers never block the writer. synchronous=FULL: a commit is on disk before we
    // respond 2xx, so an acknowledged write survives a crash or power loss.
    raw.pragma('journal_mode = WAL');
    raw.pragma(`synchronous = ${options.sqliteSynchronous === 'NORMAL' ? 'NORMAL' : 'FULL'}`);
    raw.pragma('foreign_keys = ON');
    // A write waits up to 5 s for another process's write lock (src/core/db/transaction.ts), then 503.
    raw.pragma('busy_timeout = 5000');
    const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: keepStatements(raw) }), log });
    return { kysely, dialect: 'sqlite', schema: null, sqlite: sqliteControl(raw, log), addQueryListener, close: () => kysely.destroy() };
  }

  if (/^postgres(ql)?:\/\//.test(url)) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new DatabaseUrlError('DATABASE_URL is not a valid postgres:// URL');
    }
    if (!parsed.hostname) throw new DatabaseUrlError('DATABASE_URL has no host: use postgres://user@host:5432/database');
    const schema = parsed.searchParams.get('schema');
    if (schema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
      throw new DatabaseUrlError('DATABASE_URL ?schema= must be a lower-case SQL identifier');
    }
    parsed.searchParams.delete('schema');
    const { Pool, types } = load('pg') as typeof pg;
    // int8 (bigint) columns hold epoch milliseconds and ids, all far below 2^53.
    types.setTypeParser(types.builtins.INT8, (v) => Number(v));
    const pool = new Pool({
      connectionString: parsed.toString(),
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 5000,
      ...(options.statementTimeoutMs ? { statement_timeout: options.statementTimeoutMs } : {}),
      // public stays on the path for extension operator classes (btree_gist).
      ...(schema ? { options: `-c search_path=${schema},public` } : {}),
    });
    // An idle client dropped by the server must not crash the process.
    pool.on('error', () => {});
    const kysely = new Kysely<Database>({ dialect: new SearchPathPostgresDialect({ pool }), log });
    return { kysely, dialect: 'postgres', schema, sqlite: null, addQueryListener, close: () => kysely.destroy() };
  }

  throw new DatabaseUrlError('DATABASE_URL must be sqlite:PATH, sqlite::memory: or postgres://…');
}
