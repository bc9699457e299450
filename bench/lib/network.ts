// The data feed and the roster under measurement (contract §15, §16), the `feed` and `roster`
// scenarios of npm run bench; not request scenarios:
//   feed:   the CPU of one poll of a realistic feed (1,500 controllers, 20,000 pilots), parsing,
//           matching and recording in Sector's modules; and the public GET /api/positions p99 of a
//           server polling that feed every second, against the same server without polls;
//   roster: `roster:sync` of a roster of 100,000 members into an empty database: its time, and its
//           peak RSS against that of a command that loads the same modules and database (`activity`).
// The network's stand-ins (test/support/) run in the benchmark's process.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/core/db/connection.js';
import { migrateToLatest } from '../../src/core/db/migrate.js';
import { buildDemoDivision } from '../../src/features/demo/division.js';
import { importDivision } from './import-division.js';
import { loadConfig } from '../../src/config.js';
import { createServices } from '../../src/app/services.js';
import { FeedPollService } from '../../src/features/activity/feed.service.js';
import { member, startCoreApiStandIn } from '../../test/support/core-api-stand-in.js';
import { feedDocument, startDataFeedStandIn, type FeedControllerInput } from '../../test/support/data-feed-stand-in.js';
import { load, percentile } from './load.js';
import { measureCli } from './processes.js';
import { startSector, stopSector } from './sector.js';

export const ROSTER_MEMBERS = 100_000;

export interface FeedFigures {
  /** CPU of one poll's processing, median and worst of `polls`. */
  pollCpuMedianMs: number;
  pollCpuWorstMs: number;
  polls: number;
  feedBytes: number;
  /** GET /api/positions p99 without polls, and with a poll every second. */
  p99QuietMs: number;
  p99PolledMs: number;
  /** Polls the server made while measured. */
  polledTimes: number;
}

export interface RosterFigures {
  members: number;
  seconds: number;
  peakRssMb: number;
  baselinePeakRssMb: number;
}

/** A fresh folder with a SQLite database of the demo's positions (a small division). */
async function divisionDatabase(now: number): Promise<{ dir: string; databaseUrl: string; callsigns: string[] }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sector-bench-network-'));
  const databaseUrl = `sqlite:${path.join(dir, 'network.db')}`;
  const demo = buildDemoDivision({ now, scale: { users: 200, endorsementsPerUser: 1, openTrainings: 10, bookings: 50 } });
  const db = openDatabase(databaseUrl);
  try {
    await migrateToLatest(db);
    await importDivision(db, databaseUrl, demo, now);
  } finally {
    await db.close();
  }
  return { dir, databaseUrl, callsigns: demo.positions.map((p) => p.callsign) };
}

/** A feed of 1,500 controllers (60 on the division's positions, some as EKCH_A_TWR-style relief callsigns) and 20,000 pilots. */
function feedControllers(now: number, callsigns: readonly string[]): FeedControllerInput[] {
  return Array.from({ length: 1500 }, (_, i) => {
    const own = i < 60 ? callsigns[i % callsigns.length]! : null;
    const callsign =
      own === null
        ? `K${String(i).padStart(3, '0')}_${['DEL', 'GND', 'TWR', 'APP', 'CTR'][i % 5]}`
        : i % 3 === 0
          ? own.replace('_', '_A_')
          : own;
    return { cid: 1_300_000 + i, callsign, logon_time: new Date(now - (i % 120) * 60_000).toISOString(), facility: 1 + (i % 6) };
  });
}

export async function measureFeed({
  seconds,
  polls,
  log,
}: {
  seconds: number;
  polls: number;
  log: (line: string) => void;
}): Promise<FeedFigures> {
  const now = Date.now();
  const { dir, databaseUrl, callsigns } = await divisionDatabase(now);
  try {
    const at = new Date(now).toISOString();
    const controllers = feedControllers(now, callsigns);
    const body = Buffer.from(JSON.stringify(feedDocument(at, controllers, 20_000)));
    log(`\n== feed: ${(body.length / 1e6).toFixed(1)} MB, 1,500 controllers, 20,000 pilots`);

    const cpu: number[] = [];
    const db = openDatabase(databaseUrl);
    try {
      for (let i = 0; i < polls; i++) {
        const before = process.cpuUsage();
        const { writer, repos, http } = createServices(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }), db);
        await new FeedPollService({
          writer,
          repos,
          http,
          feed: { url: 'http://127.0.0.1/', intervalS: 60 },
          clock: () => Date.now(),
        }).process(body);
        const used = process.cpuUsage(before);
        cpu.push((used.user + used.system) / 1000);
      }
    } finally {
      await db.close();
    }
    cpu.sort((a, b) => a - b);
    const median = cpu[Math.floor(cpu.length / 2)]!;
    const worst = cpu[cpu.length - 1]!;
    log(`   poll CPU of ${polls} polls: median ${median.toFixed(0)} ms, worst ${worst.toFixed(0)} ms`);

    const feed = await startDataFeedStandIn();
    feed.set(at, controllers, 20_000);
    const p99 = async (label: string, env: Record<string, string>) => {
      const sector = await startSector({ databaseUrl, label: `feed-${label}`, env: { DIVISION: '', SUBDIVISIONS: '', ...env } });
      try {
        await load({ port: sector.port, path: '/api/positions' }, { connections: 4, duration: 2 });
        const r = await load({ port: sector.port, path: '/api/positions' }, { connections: 4, duration: seconds, keepLatencies: true });
        if (r.ok === 0) throw new Error(`${label}: no 2xx response (${r.non2xx} other, ${r.errors} errors)\n${sector.output()}`);
        if (r.non2xx + r.errors > 0) throw new Error(`${label}: ${r.non2xx} non-2xx responses and ${r.errors} connection errors`);
        const sorted = [...(r.latencies ?? [])].sort((a, b) => a - b);
        return sorted.length > 0 ? percentile(sorted, 99) : r.p99;
      } finally {
        const trouble = await stopSector(sector);
        if (trouble) log(trouble);
      }
    };
    let quiet: number;
    let polled: number;
    try {
      quiet = await p99('no-polls', { DATA_FEED_URL: 'off' });
      polled = await p99('polls', { DATA_FEED_URL: feed.url, DATA_FEED_INTERVAL_S: '1' });
    } finally {
      await feed.close();
    }
    const polledTimes = feed.count();
    log(
      `   GET /api/positions p99: ${quiet.toFixed(2)} ms without polls, ${polled.toFixed(2)} ms with a poll every second ` +
        `(${polledTimes} polls): ×${(polled / quiet).toFixed(2)}`,
    );
    return {
      pollCpuMedianMs: median,
      pollCpuWorstMs: worst,
      polls,
      feedBytes: body.length,
      p99QuietMs: quiet,
      p99PolledMs: polled,
      polledTimes,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function measureRoster({ members, log }: { members: number; log: (line: string) => void }): Promise<RosterFigures> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sector-bench-roster-'));
  const api = await startCoreApiStandIn();
  try {
    log(`\n== roster: roster:sync of ${members} members into an empty SQLite database`);
    for (let i = 1; i <= members; i++) api.members.set(2_000_000 + i, member(2_000_000 + i, 'EUD', 'SCA', [1, 2, 3, 4, 5, 7, 8][i % 7]));
    const env = {
      DATABASE_URL: `sqlite:${path.join(dir, 'roster.db')}`,
      DIVISION: 'EUD',
      CORE_API_URL: api.url,
      CORE_API_KEY: api.key,
      LOG_LEVEL: 'warn',
    };
    const baseline = await measureCli(['activity', '--json'], env);
    const sync = await measureCli(['roster:sync', '--json'], env);
    const created = (JSON.parse(sync.stdout) as { created: number[] }).created.length;
    if (created !== members) throw new Error(`roster:sync created ${created} users of ${members}`);
    log(
      `   synced in ${sync.seconds.toFixed(1)} s; peak RSS ${sync.peak.toFixed(0)} MB against ${baseline.peak.toFixed(0)} MB ` +
        `of \`activity\`: +${(sync.peak - baseline.peak).toFixed(0)} MB`,
    );
    return { members, seconds: sync.seconds, peakRssMb: sync.peak, baselinePeakRssMb: baseline.peak };
  } finally {
    await api.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
