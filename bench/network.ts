// The roster and the data feed under measurement (contract §15, §16; targets in bench/README.md):
//   1. one poll of a realistic feed (1,500 controllers, 20,000 pilots): CPU of parsing, matching
//      and recording, ≤ 300 ms;
//   2. the public GET /api/positions p99 while the server polls that feed every second, against
//      the same server without polls: ≤ 1.5×;
//   3. a roster of 100,000 members synced by `roster:sync` in ≤ 60 s, peak RSS growth ≤ 100 MB
//      (the command's peak RSS against a command that loads the same modules and database).
//
//   npm run build && npx tsx bench/network.ts [--duration 10] [--members 100000] [--polls 10]
//
// The network's stand-ins (test/support/) run in this process. Exits non-zero when a target is missed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/db/connection.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { buildDemoDivision } from '../src/demo/division.js';
import { importChanges } from '../src/services/import.js';
import { processFeed } from '../src/services/feed-poll.js';
import { startCoreApiStandIn, member } from '../test/support/core-api-stand-in.js';
import { feedDocument, startDataFeedStandIn, type FeedControllerInput } from '../test/support/data-feed-stand-in.js';
import { load, percentile } from './lib/load.js';
import { atExit, peakRssMb, ROOT, startNode } from './lib/processes.js';
import { startSector, stopSector } from './lib/sector.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '10' },
    members: { type: 'string', default: '100000' },
    polls: { type: 'string', default: '10' },
  },
});
const NOW = Date.now();
const missed: string[] = [];
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sector-bench-network-'));
atExit(() => fs.rmSync(dir, { recursive: true, force: true }));

// The division: the demo's positions in a fresh SQLite database.
const databaseUrl = `sqlite:${path.join(dir, 'network.db')}`;
const demo = buildDemoDivision({ now: NOW, scale: { users: 200, endorsementsPerUser: 1, openTrainings: 10, bookings: 50 } });
{
  const db = openDatabase(databaseUrl);
  await migrateToLatest(db);
  await importChanges(db, demo, NOW);
  await db.close();
}
const callsigns = demo.positions.map((p) => p.callsign);

// A feed: 1,500 controllers (60 of them on the division's positions, some as EKCH_A_TWR-style
// relief callsigns) and 20,000 pilots.
const at = new Date(NOW).toISOString();
const controllers: FeedControllerInput[] = Array.from({ length: 1500 }, (_, i) => {
  const own = i < 60 ? callsigns[i % callsigns.length]! : null;
  const callsign =
    own === null
      ? `K${String(i).padStart(3, '0')}_${['DEL', 'GND', 'TWR', 'APP', 'CTR'][i % 5]}`
      : i % 3 === 0
        ? own.replace('_', '_A_')
        : own;
  return { cid: 1_300_000 + i, callsign, logon_time: new Date(NOW - (i % 120) * 60_000).toISOString(), facility: 1 + (i % 6) };
});
const body = Buffer.from(JSON.stringify(feedDocument(at, controllers, 20_000)));
process.stdout.write(`feed: ${(body.length / 1e6).toFixed(1)} MB, 1,500 controllers, 20,000 pilots\n`);

// 1. CPU of one poll's processing.
{
  const db = openDatabase(databaseUrl);
  const cpu: number[] = [];
  for (let i = 0; i < Number(args.polls); i++) {
    const before = process.cpuUsage();
    await processFeed({ db, feed: { url: 'http://127.0.0.1/', intervalS: 60 } }, body);
    const used = process.cpuUsage(before);
    cpu.push((used.user + used.system) / 1000);
  }
  await db.close();
  cpu.sort((a, b) => a - b);
  const worst = cpu[cpu.length - 1]!;
  process.stdout.write(
    `poll CPU: median ${cpu[Math.floor(cpu.length / 2)]!.toFixed(0)} ms, worst ${worst.toFixed(0)} ms (target ≤ 300 ms)\n`,
  );
  if (worst > 300) missed.push(`poll CPU ${worst.toFixed(0)} ms > 300 ms`);
}

// 2. Public GET p99 with and without polls.
{
  const feed = await startDataFeedStandIn();
  feed.set(at, controllers, 20_000);
  const p99 = async (label: string, env: Record<string, string>) => {
    const sector = await startSector({ databaseUrl, label, env: { DIVISION: '', SUBDIVISIONS: '', ...env } });
    try {
      await load({ port: sector.port, path: '/api/positions' }, { connections: 4, duration: 2 });
      const r = await load(
        { port: sector.port, path: '/api/positions' },
        { connections: 4, duration: Number(args.duration), keepLatencies: true },
      );
      if (r.ok === 0) throw new Error(`${label}: no 2xx answer (${r.non2xx} other, ${r.errors} errors)\n${sector.output()}`);
      const sorted = [...(r.latencies ?? [])].sort((a, b) => a - b);
      return sorted.length > 0 ? percentile(sorted, 99) : r.p99;
    } finally {
      await stopSector(sector);
    }
  };
  const quiet = await p99('no polls', { DATA_FEED_URL: 'off' });
  const polled = await p99('polls', { DATA_FEED_URL: feed.url, DATA_FEED_INTERVAL_S: '1' });
  const polls = feed.count();
  await feed.close();
  const ratio = polled / quiet;
  process.stdout.write(
    `GET /api/positions p99: ${quiet.toFixed(2)} ms without polls, ${polled.toFixed(2)} ms with a poll every second (${polls} polls): ×${ratio.toFixed(2)} (target ≤ 1.5)\n`,
  );
  if (ratio > 1.5) missed.push(`p99 during polls ×${ratio.toFixed(2)} > 1.5`);
}

// 3. A roster of 100,000 members.
{
  const members = Number(args.members);
  const api = await startCoreApiStandIn();
  for (let i = 1; i <= members; i++) api.members.set(2_000_000 + i, member(2_000_000 + i, 'EUD', 'SCA', [1, 2, 3, 4, 5, 7, 8][i % 7]));
  const rosterDb = `sqlite:${path.join(dir, 'roster.db')}`;
  const env = { DATABASE_URL: rosterDb, DIVISION: 'EUD', CORE_API_URL: api.url, CORE_API_KEY: api.key, LOG_LEVEL: 'warn' };
  const cli = path.join(ROOT, 'dist/cli/index.js');
  const peakOf = async (args: string[]) => {
    const started = Date.now();
    const proc = startNode(cli, { args, env, name: args[0] });
    let peak = 0;
    const timer = setInterval(() => (peak = Math.max(peak, peakRssMb(proc.pid) ?? 0)), 20);
    const exit = await proc.exited;
    clearInterval(timer);
    if (exit.code !== 0) throw new Error(`${args.join(' ')} failed: ${proc.output()}`);
    return { peak, seconds: (Date.now() - started) / 1000 };
  };
  const baseline = await peakOf(['activity', '--json']);
  const sync = await peakOf(['roster:sync', '--json']);
  await api.close();
  const growth = sync.peak - baseline.peak;
  process.stdout.write(
    `roster of ${members} members: synced in ${sync.seconds.toFixed(1)} s (target ≤ 60 s), peak RSS ${sync.peak.toFixed(0)} MB against ${baseline.peak.toFixed(0)} MB: +${growth.toFixed(0)} MB (target ≤ 100 MB)\n`,
  );
  if (sync.seconds > 60) missed.push(`roster sync ${sync.seconds.toFixed(1)} s > 60 s`);
  if (growth > 100) missed.push(`roster sync peak RSS growth ${growth.toFixed(0)} MB > 100 MB`);
}

if (missed.length > 0) {
  process.stdout.write(`targets missed: ${missed.join('; ')}\n`);
  process.exit(1);
}
process.stdout.write('all targets met\n');
process.exit(0);
