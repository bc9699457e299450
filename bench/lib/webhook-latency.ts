// Webhook delivery latency (contract §10: "delivered within one second of its commit"): Sector with
// three subscriptions to a local receiver, bookings created at a steady 50 per second; the time
// from each event's timestamp (taken in the change's transaction, so at or before its commit) to
// its arrival at the receiver, p50 and p95 — on SQLite and on PostgreSQL.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../../src/core/db/connection.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { servicesOver } from '../../test/support/seed.js';
import { load, percentile, type LoadTarget } from './load.js';
import { ROOT, runNode } from './processes.js';
import { startSector, stopSector } from './sector.js';

const CLI = path.join(ROOT, 'dist/cli/index.js');
export const WEBHOOK_RATE = 50;
export const WEBHOOK_SUBSCRIPTIONS = 3;

export interface WebhookLatency {
  p50: number | null;
  p95: number | null;
  deliveries: number;
  failures: string[];
}

/** Receives deliveries, keeping each one's latency once `since` is set (ms since its event's timestamp). */
async function startTimingReceiver() {
  const latencies: number[] = [];
  let received = 0;
  let since = Infinity;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const arrived = Date.now();
      received++;
      res.writeHead(204).end();
      const { timestamp } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { timestamp: string };
      const at = Date.parse(timestamp);
      if (at >= since) latencies.push(arrived - at);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    latencies,
    received: () => received,
    measureFrom: (ms: number) => (since = ms),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * Measures one database. `prepare` readies it (a copy of the SQLite file, or a PostgreSQL schema
 * with the division imported) and returns its URL and an edit key; `create` is the create target
 * for a given port and key.
 */
export async function measureWebhookLatency({
  label,
  databaseUrl,
  token,
  create,
  seconds,
  log,
}: {
  label: string;
  databaseUrl: string;
  token: string;
  create: (port: number, token: string) => LoadTarget;
  seconds: number;
  log: (line: string) => void;
}): Promise<WebhookLatency> {
  const receiver = await startTimingReceiver();
  const db = openDatabase(databaseUrl);
  try {
    const subs = servicesOver(db, databaseUrl).webhooks;
    for (let i = 0; i < WEBHOOK_SUBSCRIPTIONS; i++) await subs.add(`${receiver.url}?${i}`, null);
  } finally {
    await db.close();
  }
  const sector = await startSector({ databaseUrl, label: `webhooks-${label}` });
  const failures: string[] = [];
  try {
    log(`\n== webhooks (${label}): ${WEBHOOK_SUBSCRIPTIONS} subscriptions, bookings created at ${WEBHOOK_RATE}/s`);
    const target = create(sector.port, token);
    // Steady state: the queue is empty before the measured round: the warm-up's deliveries have
    // arrived, and so have those of the events the server published at its start (the dataset's
    // endorsements that have expired, all published at once: thousands of deliveries on PostgreSQL
    // take longer than 30 s): no delivery for a second.
    await load(target, { connections: 10, duration: 2, overallRate: WEBHOOK_RATE });
    for (let seen = -1, waited = 0; receiver.received() !== seen && waited < 180_000; waited += 1000) {
      seen = receiver.received();
      await new Promise((r) => setTimeout(r, 1000));
    }
    receiver.measureFrom(Date.now());
    const round = await load(target, { connections: 10, duration: seconds, overallRate: WEBHOOK_RATE });
    if (round.non2xx + round.errors > 0) failures.push(`webhooks (${label}): ${round.non2xx + round.errors} creates failed`);
    // Deliveries still on their way when the round ends count too.
    const expected = (n: number) => n >= round.ok * WEBHOOK_SUBSCRIPTIONS;
    for (let waited = 0; !expected(receiver.latencies.length) && waited < 15_000; waited += 100)
      await new Promise((r) => setTimeout(r, 100));
    if (!expected(receiver.latencies.length))
      failures.push(`webhooks (${label}): ${receiver.latencies.length} deliveries of ${round.ok * WEBHOOK_SUBSCRIPTIONS} within 15 s`);
  } finally {
    const trouble = await stopSector(sector);
    if (trouble) failures.push(trouble);
    await receiver.close();
  }
  const sorted = [...receiver.latencies].sort((a, b) => a - b);
  const p50 = sorted.length > 0 ? percentile(sorted, 50) : null;
  const p95 = sorted.length > 0 ? percentile(sorted, 95) : null;
  log(`   ${sorted.length} deliveries: p50 ${p50 ?? '—'} ms, p95 ${p95 ?? '—'} ms, max ${sorted.at(-1) ?? '—'} ms`);
  return { p50, p95, deliveries: sorted.length, failures };
}

/** A PostgreSQL schema of its own with the division imported and an edit key; drop() removes it. */
export async function preparePostgres(pgUrl: string, divisionFile: string) {
  const schema = `sector_bench_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const databaseUrl = `${pgUrl}${pgUrl.includes('?') ? '&' : '?'}schema=${schema}`;
  const env = { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' };
  const drop = async () => {
    const db = openDatabase(pgUrl);
    try {
      await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(db.kysely);
    } finally {
      await db.close();
    }
  };
  try {
    const db = openDatabase(databaseUrl);
    try {
      await migrateToLatest(db);
    } finally {
      await db.close();
    }
    await runNode(CLI, ['import', divisionFile], { env, timeoutMs: 300_000 });
    const key = JSON.parse((await runNode(CLI, ['create:apikey', '--name', 'bench', '--edit', '--json'], { env })).stdout.trim()) as {
      token: string;
    };
    return { databaseUrl, token: key.token, drop };
  } catch (err) {
    await drop();
    throw err;
  }
}
