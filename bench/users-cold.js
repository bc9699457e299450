// Cold builds of GET /api/users with every relation, on SQLite and PostgreSQL, timed per phase:
// each SQL statement (as the driver reports it), the whole fetch, presenting, JSON.stringify.
//
//   npm run build && node bench/users-cold.js [--runs 30] [--db sqlite,postgres] [--dist dist]
//
// PostgreSQL: PG_URL (default postgres://root@127.0.0.1:5432/test); the data goes into its own
// schema, dropped at the end.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { values: args } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    db: { type: 'string', default: 'sqlite,postgres' },
    dist: { type: 'string', default: 'dist' },
    variant: { type: 'string', default: 'newer' },
    explain: { type: 'boolean', default: false },
  },
});
const RUNS = Number(args.runs);
const DIST = pathToFileURL(path.resolve(ROOT, args.dist)).href;
const PG_URL = process.env.PG_URL ?? 'postgres://root@127.0.0.1:5432/test';
const SCHEMA = 'sector_users_cold';
const NOW = Date.UTC(2025, 5, 1, 12, 0, 0);
const SCALE = { users: 10_000, endorsementsPerUser: 3, openTrainings: 2_000, bookings: 2_000 };
const RELATIONS = ['allUsers', 'endorsements', 'roles', 'training', 'name', 'email', 'divisions', 'activeAreas'];

const load = (p) => import(`${DIST}/${p}`);
const [{ buildDemoDivision }, { runImport }, { openDatabase }, { migrateToLatest }, { loadConfig }, { createServices }, users, { presentUsers }, { membershipOf }, { buildApp }] =
  await Promise.all([
    load('demo/division.js'),
    load('import/index.js'),
    load('db/connection.js'),
    load('db/migrate.js'),
    load('config.js'),
    load('services/index.js'),
    load('routes/users/index.js'),
    load('presenters/users.js'),
    load('domain/users/index.js'),
    load('app.js'),
  ]);

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const fmt = (ms) => ms.toFixed(1).padStart(7);

/** Each statement's plan: EXPLAIN QUERY PLAN on SQLite, EXPLAIN ANALYZE on PostgreSQL. */
async function explain(db, statements) {
  const { sql } = await import(pathToFileURL(path.join(ROOT, 'node_modules/kysely/dist/esm/index.js')).href);
  for (const [text, , parameters] of statements) {
    const prefix = db.dialect === 'sqlite' ? 'EXPLAIN QUERY PLAN ' : 'EXPLAIN (ANALYZE, BUFFERS) ';
    const { rows } = await db.kysely.executeQuery({ ...sql``.compile(db.kysely), sql: prefix + text, parameters });
    console.log(`\n${text}\n${parameters.join(', ')}`);
    for (const r of rows) console.log(`   ${r.detail ?? r['QUERY PLAN']}`);
  }
}

/** A short name for a statement: the table it reads from and how many statements came before. */
function label(sqlText, index) {
  // The outer statement's tables, not those of its subqueries.
  let outer = sqlText;
  for (let prev = ''; prev !== outer; ) [prev, outer] = [outer, outer.replace(/\([^()]*\)/g, '')];
  sqlText = outer;
  const from = /from\s+"?(\w+)"?/i.exec(sqlText)?.[1] ?? '?';
  const joins = [...sqlText.matchAll(/join\s+"?(\w+)"?/gi)].map((m) => m[1]);
  return `${String(index + 1).padStart(2)} ${[from, ...joins].join('+')}`;
}

async function measure(name, databaseUrl, demo) {
  let capture = null;
  let last = [];
  const db = openDatabase(databaseUrl, { onQuery: (e) => capture?.push([e.query.sql, e.queryDurationMillis, e.query.parameters]) });
  try {
    await migrateToLatest(db);
    const t0 = performance.now();
    await runImport(db, demo, NOW);
    const importMs = performance.now() - t0;
    const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', DIVISION: 'EUD', SUBDIVISIONS: 'SCA' });
    const services = createServices(config, db, () => NOW);
    const req = users.parseUsersRequest({ include: RELATIONS }, args.variant);
    // What UsersList.build does, split so each phase is timed on its own.
    const q = { includes: req.includes, membership: membershipOf(config), onlyAtcActive: false, now: NOW };

    const samples = { fetch: [], present: [], stringify: [], bytes: [], total: [] };
    const statements = new Map();
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
        if (!statements.has(key)) statements.set(key, []);
        statements.get(key).push(ms);
      });
    }
    capture = null;

    // The whole request through the application, its list cache bypassed by a bump before each.
    const app = await buildApp(services, { logger: false });
    await app.ready();
    const { token } = await services.keys.create({ name: 'users-cold', scope: 'read', variant: null, compat: null });
    const url = `/api/users?include=${RELATIONS.join(',')}`;
    const headers = { authorization: `Bearer ${token}`, 'api-variant': args.variant };
    const requests = [];
    for (let i = 0; i < RUNS + 3; i++) {
      services.freshness.bump();
      const a = performance.now();
      const res = await app.inject({ method: 'GET', url, headers });
      const ms = performance.now() - a;
      if (res.statusCode !== 200 || res.rawPayload.length !== bytes) throw new Error(`unexpected answer ${res.statusCode}`);
      if (i >= 3) requests.push(ms);
    }
    await app.close();

    console.log(`\n${name}: ${RUNS} cold builds, ${bytes} bytes, import ${importMs.toFixed(0)} ms   p50 / p99 ms`);
    const row = (title, values) => {
      const sorted = [...values].sort((x, y) => x - y);
      console.log(`  ${title.padEnd(46)} ${fmt(percentile(sorted, 50))} ${fmt(percentile(sorted, 99))}`);
    };
    for (const [key, values] of statements) row(`sql ${key}`, values);
    const sqlSum = samples.fetch.map((_, i) => [...statements.values()].reduce((s, v) => s + v[i], 0));
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
      const { sql } = await import(pathToFileURL(path.join(ROOT, 'node_modules/kysely/dist/esm/index.js')).href);
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
