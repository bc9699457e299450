// Cold builds of GET /api/users with every relation, on SQLite and PostgreSQL, timed per phase:
// each SQL statement (as the driver reports it), the whole fetch, presenting, JSON.stringify.
//
//   npx tsx bench/users-cold.ts [--runs 30] [--db sqlite,postgres] [--variant newer|older] [--users 10000] [--explain]
//
// PostgreSQL: PG_URL (default postgres://root@127.0.0.1:5432/test); the data goes into its own
// schema, dropped at the end.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../src/app.js';
import { loadConfig, type ApiVariant } from '../src/config.js';
import { openDatabase, type Db } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { buildDemoDivision, type DemoData, type DemoScale } from '../src/demo/division.js';
import { membershipOf } from '../src/domain/users/index.js';
import { importDivision } from './lib/import-division.js';
import { presentUsers } from '../src/presenters/users.js';
import { parseUsersRequest } from '../src/routes/users/index.js';
import { createServices } from '../src/services/index.js';
import { USERS_PATH, USERS_RELATIONS } from './lib/scenarios.js';

const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    db: { type: 'string', default: 'sqlite,postgres' },
    variant: { type: 'string', default: 'newer' },
    users: { type: 'string', default: '10000' },
    explain: { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error(`--runs must be a whole number from 1 (got ${args.runs})`);
function variantOf(value: string): ApiVariant {
  if (value === 'newer' || value === 'older') return value;
  throw new Error(`--variant must be newer or older (got ${value})`);
}
const VARIANT = variantOf(args.variant);
const PG_URL = process.env.PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const SCHEMA = 'sector_users_cold';
const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const USERS = Number(args.users);
if (!Number.isInteger(USERS) || USERS < 1) throw new Error(`--users must be a whole number from 1 (got ${args.users})`);
// The benchmark's division (bench/lib/dataset.ts), or as many users as asked with as many of the rest per user.
const SCALE: DemoScale = { users: USERS, endorsementsPerUser: 3, openTrainings: USERS / 5, bookings: 2_000 };

/** A statement as the query hook reports it: SQL text, milliseconds, parameters. */
type Statement = [sql: string, ms: number, parameters: readonly unknown[]];

const percentile = (sorted: readonly number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const fmt = (ms: number): string => ms.toFixed(1).padStart(7);

/** Each statement's plan: EXPLAIN QUERY PLAN on SQLite, EXPLAIN ANALYZE on PostgreSQL. */
async function explain(db: Db, statements: readonly Statement[]): Promise<void> {
  for (const [text, , parameters] of statements) {
    const prefix = db.dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN (ANALYZE, BUFFERS) ';
    const { rows } = await db.kysely.executeQuery<{ detail?: string; 'QUERY PLAN'?: string }>({
      ...sql``.compile(db.kysely),
      sql: prefix + text,
      parameters,
    });
    console.log(`\n${text}\n${parameters.join(', ')}`);
    for (const r of rows) console.log(`   ${r.detail ?? r['QUERY PLAN']}`);
  }
}

/** A short name for a statement: the table it reads from and how many statements came before. */
function label(sqlText: string, index: number): string {
  // The outer statement's tables, not those of its subqueries.
  let outer = sqlText;
  for (let prev = ''; prev !== outer;) [prev, outer] = [outer, outer.replace(/\([^()]*\)/g, '')];
  sqlText = outer;
  const from = /from\s+"?(\w+)"?/i.exec(sqlText)?.[1] ?? '?';
  const joins = [...sqlText.matchAll(/join\s+"?(\w+)"?/gi)].map((m) => m[1]!);
  return `${String(index + 1).padStart(2)} ${[from, ...joins].join('+')}`;
}

async function measure(name: string, databaseUrl: string, demo: DemoData): Promise<void> {
  let capture: Statement[] | null = null;
  let last: Statement[] = [];
  const db = openDatabase(databaseUrl, { onQuery: (e) => capture?.push([e.query.sql, e.queryDurationMillis, e.query.parameters]) });
  try {
    await migrateToLatest(db);
    const t0 = performance.now();
    await importDivision(db, databaseUrl, demo, NOW);
    const importMs = performance.now() - t0;
    const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', DIVISION: 'EUD', SUBDIVISIONS: 'SCA' });
    const services = createServices(config, db, () => NOW);
    const req = parseUsersRequest({ include: USERS_RELATIONS }, VARIANT);
    // What Users.build does, split so each phase is timed on its own.
    const q = { includes: req.includes, membership: membershipOf(config), onlyAtcActive: false, now: NOW };

    const samples: Record<'fetch' | 'present' | 'stringify' | 'bytes' | 'total', number[]> = {
      fetch: [],
      present: [],
      stringify: [],
      bytes: [],
      total: [],
    };
    const statements = new Map<string, number[]>();
    let bytes = 0;
    for (let i = 0; i < RUNS + 3; i++) {
      capture = [];
      const a = performance.now();
      const data = await services.repos.users.listForApi(q);
      const b = performance.now();
      const list = presentUsers(data, req.includes, req.variant);
      const c = performance.now();
      const body = JSON.stringify(list);
      const d = performance.now();
      // As the route keeps it: bytes and their ETag.
      const buffer = Buffer.from(body);
      createHash('sha1').update(buffer).digest('base64url');
      const e = performance.now();
      bytes = buffer.length;
      // The first runs warm the JIT, the statement cache and the page cache.
      if (i < 3) continue;
      samples.fetch.push(b - a);
      samples.present.push(c - b);
      samples.stringify.push(d - c);
      samples.bytes.push(e - d);
      samples.total.push(e - a);
      last = capture;
      capture.forEach(([text, ms], j) => {
        const key = label(text, j);
        const values = statements.get(key) ?? [];
        values.push(ms);
        statements.set(key, values);
      });
    }
    capture = null;

    // The whole request through the application, its list cache bypassed by a bump before each.
    const app = await buildApp(services, { logger: false });
    await app.ready();
    const { token } = await services.keys.create({ name: 'users-cold', scope: 'read', variant: null, compat: null });
    const headers = { authorization: `Bearer ${token}`, 'api-variant': VARIANT };
    const requests: number[] = [];
    for (let i = 0; i < RUNS + 3; i++) {
      const a = performance.now();
      const res = await app.inject({ method: 'GET', url: USERS_PATH, headers });
      const ms = performance.now() - a;
      if (res.statusCode !== 200 || res.rawPayload.length !== bytes) throw new Error(`unexpected answer ${res.statusCode}`);
      if (i >= 3) requests.push(ms);
    }
    await app.close();

    console.log(`\n${name}: ${RUNS} cold builds, ${bytes} bytes, import ${importMs.toFixed(0)} ms   p50 / p99 ms`);
    const row = (title: string, values: readonly number[]): void => {
      const sorted = [...values].sort((x, y) => x - y);
      console.log(`  ${title.padEnd(46)} ${fmt(percentile(sorted, 50))} ${fmt(percentile(sorted, 99))}`);
    };
    for (const [key, values] of statements) row(`sql ${key}`, values);
    const sqlSum = samples.fetch.map((_, i) => [...statements.values()].reduce((s, v) => s + v[i]!, 0));
    row('sql (sum of statements)', sqlSum);
    row('fetch (listForApi, incl. row decoding)', samples.fetch);
    row('present', samples.present);
    row('JSON.stringify', samples.stringify);
    row('Buffer + ETag', samples.bytes);
    row('total', samples.total);
    row('GET /api/users (inject, cache bypassed)', requests);
    if (args.explain) await explain(db, last);
  } finally {
    if (db.dialect === 'postgres') {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(SCHEMA)} CASCADE`.execute(db.kysely);
    }
    await db.close();
  }
}

const demo = buildDemoDivision({ now: NOW, seed: 1, scale: SCALE });
for (const which of args.db.split(',')) {
  if (which === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sector-users-cold-'));
    try {
      await measure('SQLite', `sqlite:${path.join(dir, 'bench.db')}`, demo);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  } else if (which === 'postgres') {
    await measure('PostgreSQL', `${PG_URL}${PG_URL.includes('?') ? '&' : '?'}schema=${SCHEMA}`, demo);
  } else {
    throw new Error(`unknown database ${which}`);
  }
}
