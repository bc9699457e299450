// One size of the users scale curve (run by bench/scale.ts in a process of its own, so that each
// size starts from an empty heap): a division of N users imported into a fresh SQLite file, then
// uncached GET /api/users with every relation over HTTP from the application in this process, timed.
//   npx tsx bench/scale-users.ts USERS RUNS   (prints progress lines, then one line of JSON)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { exchange } from './lib/http.js';
import { percentile } from './lib/load.js';
import { USERS_PATH } from './lib/scenarios.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { type Db, openDatabase } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { buildDemoDivision } from '../src/demo/division.js';
import { importDivision as load } from './lib/import-division.js';
import { createServices } from '../src/services/index.js';

const [users, runs] = process.argv.slice(2).map(Number) as [number, number];
if (!Number.isInteger(users) || !Number.isInteger(runs) || users < 1 || runs < 1) throw new Error('usage: scale-users USERS RUNS');

const now = Date.now();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sector-scale-users-'));
const databaseUrl = `sqlite:${path.join(dir, 'scale.db')}`;
const db = openDatabase(databaseUrl);

/**
 * The division imported, in a function of its own: the demo division, hundreds of megabytes at
 * 100k users, must not stay reachable while the builds are timed, as a server holds no such thing.
 */
async function importDivision(target: Db): Promise<void> {
  const demo = buildDemoDivision({ now, seed: 1, scale: { users, endorsementsPerUser: 3, openTrainings: users / 5, bookings: 2_000 } });
  const t0 = performance.now();
  await load(target, databaseUrl, demo, now);
  console.log(`   ${users} users: imported in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

try {
  await migrateToLatest(db);
  await importDivision(db);
  const config = loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', RATE_LIMIT: '0', DIVISION: 'EUD', SUBDIVISIONS: 'SCA' });
  const services = createServices(config, db);
  const app = await buildApp(services, { logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const { token } = await services.keys.create({ name: 'scale', scope: 'read', variant: null, compat: null });
  const headers = { authorization: `Bearer ${token}` };
  const samples: number[] = [];
  let bytes = 0;
  // The first two warm the JIT, the statement cache and the page cache.
  for (let i = 0; i < runs + 2; i++) {
    const a = performance.now();
    const res = await exchange({ port, path: USERS_PATH, headers });
    const ms = performance.now() - a;
    if (res.status !== 200) throw new Error(`GET /api/users answered ${res.status}`);
    bytes = res.body.length;
    if (i >= 2) samples.push(ms);
  }
  await app.close();
  samples.sort((a, b) => a - b);
  console.log(JSON.stringify({ users, build_p50_ms: Number(percentile(samples, 50).toFixed(2)), bytes, runs }));
} finally {
  await db.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
