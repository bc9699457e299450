// npm run bench -- --scale: how Sector's costs grow with the data, on SQLite.
//  - Users: an uncached GET /api/users with every relation (built from the database, presented,
//    serialised, sent) at 10k and 100k users, in a process of its own per size (bench/scale-users.ts).
//  - Past bookings: creates, and the public list of bookings from now on (`GET /api/bookings?from=…`,
//    what a website or bot asks for; each request its own `from`, while bookings are created at
//    50/s, so the recent and coming bookings are read again after each), with 10k and with 1M
//    bookings in the past, on a Sector process over HTTP.
// Writes bench/results-scale.json and the chart docs/scale.svg.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { scaleChart } from './lib/chart.js';
import { buildDataset } from './lib/dataset.js';
import { load, percentile, type LoadTarget } from './lib/load.js';
import { ROOT, runNode } from './lib/processes.js';
import { SCALE_TARGETS, USERS_PATH, USERS_RELATIONS } from './lib/scenarios.js';
import { startSector, stopSector } from './lib/sector.js';
import { slotSequence } from './lib/slots.js';

const RESULTS_FILE = path.join(ROOT, 'bench/results-scale.json');
const CHART_FILE = path.join(ROOT, 'docs/scale.svg');
const MINUTE = 60_000;
/** Bookings created per second while the list is measured. */
const LIST_WRITES_PER_S = 50;

export interface ScaleResults {
  users: Array<{ users: number; build_p50_ms: number; bytes: number; runs: number }>;
  /** build_p50_ms at 100k users over 10k. */
  users_build_growth: number | null;
  past_bookings: Array<{ past_bookings: number; create_p50_ms: number; list_p50_ms: number; create_answers: number; list_answers: number }>;
  /** p50 with 1M past bookings over 10k. */
  create_growth: number | null;
  list_growth: number | null;
}

type Log = (line?: string) => void;

/**
 * Uncached GET /api/users with every relation, timed in a process of its own (bench/scale-users.ts),
 * so that each size starts from an empty heap and the load generator's memory stays small.
 */
async function usersBuild(users: number, runs: number, log: Log): Promise<ScaleResults['users'][number]> {
  const tsx = path.join(ROOT, 'node_modules/tsx/dist/cli.mjs');
  const run = await runNode(tsx, [path.join(ROOT, 'bench/scale-users.ts'), String(users), String(runs)], { timeoutMs: 30 * 60_000 });
  const lines = run.stdout.trim().split('\n');
  for (const line of lines.slice(0, -1)) log(line);
  const result = JSON.parse(lines.at(-1)!) as ScaleResults['users'][number];
  log(`   ${users} users: uncached build p50 ${result.build_p50_ms} ms over ${runs} runs (${(result.bytes / 1e6).toFixed(1)} MB)`);
  return result;
}

/** Adds `count` bookings in the past, spread over the positions without overlaps, in one transaction. */
function addPastBookings(databaseFile: string, count: number, now: number): void {
  const db = new Database(databaseFile);
  try {
    const positions = db.prepare<[], { id: number }>('SELECT id FROM positions ORDER BY id').all();
    const users = db.prepare<[], { id: number }>('SELECT id FROM users ORDER BY id LIMIT 1000').all();
    const insert = db.prepare(
      `INSERT INTO bookings (user_id, position_id, source, time_start, time_end, created_at, updated_at)
       VALUES (?, ?, 'CC', ?, ?, ?, ?)`,
    );
    // Ending at least a day before now (the demo's own bookings lie around now), one hour each,
    // oldest first, as they accumulate.
    const latestEnd = Math.floor(now / MINUTE) * MINUTE - 24 * 60 * MINUTE;
    db.transaction(() => {
      for (let i = count - 1; i >= 0; i--) {
        const slot = Math.floor(i / positions.length);
        const end = latestEnd - slot * 60 * MINUTE;
        const start = end - 60 * MINUTE;
        insert.run(users[i % users.length]!.id, positions[i % positions.length]!.id, start, end, start - 7 * 24 * 60 * MINUTE, start);
      }
    })();
    db.exec('ANALYZE');
  } finally {
    db.close();
  }
}

/** Create p50 and uncached public list p50 on a Sector process over a database with `past` past bookings. */
async function pastBookings(
  past: number,
  base: { databaseFile: string; dir: string; token: string; callsigns: string[]; userIds: number[] },
  seconds: number,
  log: Log,
): Promise<ScaleResults['past_bookings'][number]> {
  const now = Date.now();
  const file = path.join(base.dir, `past-${past}.db`);
  fs.copyFileSync(base.databaseFile, file);
  const t0 = performance.now();
  addPastBookings(file, past, now);
  log(`   ${past} past bookings: written in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const sector = await startSector({ databaseUrl: `sqlite:${file}`, label: `scale-${past}` });
  try {
    const slots = slotSequence({ now, callsigns: base.callsigns, userIds: base.userIds });
    const create: LoadTarget = {
      port: sector.port,
      method: 'POST',
      path: '/api/bookings/create',
      headers: { authorization: `Bearer ${base.token}`, 'content-type': 'application/json' },
      setupRequest: (req) => ({ ...req, body: slots.next() }),
    };
    let n = 0;
    const from = Math.floor(now / 1000) * 1000;
    const list: LoadTarget = {
      port: sector.port,
      path: '/api/bookings',
      // A new `from` each time (a second apart): the list is built from the database every time.
      setupRequest: (req) => ({ ...req, path: `/api/bookings?from=${new Date(from + 1000 * (n++ % 86_400)).toISOString()}` }),
    };
    // Lists first: the creates at full speed add bookings from now on by the ten thousand, which
    // the list would then carry, so that its size, not the past bookings, would set its time.
    // Meanwhile bookings are created at LIST_WRITES_PER_S, as on a live division: each one makes
    // the next list read the recent and coming bookings from the database again.
    await load(list, { connections: 4, duration: 2 });
    const [lists, listWrites] = await Promise.all([
      load(list, { connections: 4, duration: seconds, keepLatencies: true }),
      load(create, { connections: 4, duration: seconds, overallRate: LIST_WRITES_PER_S }),
    ]);
    if (listWrites.non2xx + listWrites.errors > 0)
      throw new Error(`creates beside the lists: ${listWrites.non2xx} non-2xx, ${listWrites.errors} errors`);
    await load(create, { connections: 32, duration: 2 });
    const creates = await load(create, { connections: 32, duration: seconds, keepLatencies: true });
    for (const [what, r] of [
      ['creates', creates],
      ['lists', lists],
    ] as const) {
      if (r.non2xx + r.errors > 0) throw new Error(`${what} with ${past} past bookings: ${r.non2xx} non-2xx answers, ${r.errors} errors`);
    }
    const p50 = (values: number[] | undefined): number =>
      percentile(
        [...(values ?? [])].sort((a, b) => a - b),
        50,
      );
    const result = {
      past_bookings: past,
      create_p50_ms: Number(p50(creates.latencies).toFixed(2)),
      list_p50_ms: Number(p50(lists.latencies).toFixed(2)),
      create_answers: creates.latencies?.length ?? 0,
      list_answers: lists.latencies?.length ?? 0,
    };
    log(
      `   ${past} past bookings: create p50 ${result.create_p50_ms} ms (${creates.rps.toFixed(0)}/s), ` +
        `list from now p50 ${result.list_p50_ms} ms (${lists.rps.toFixed(0)}/s, beside ${listWrites.rps.toFixed(0)} creates/s)`,
    );
    return result;
  } finally {
    const trouble = await stopSector(sector);
    if (trouble) log(trouble);
    for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  }
}

export async function runScale({ quick, log }: { quick: boolean; log: Log }): Promise<void> {
  log(
    `Sector scale curves on SQLite${quick ? ' (quick)' : ''}; users path ${USERS_PATH.split('?')[0]} with ${USERS_RELATIONS.length} relations`,
  );
  const results: ScaleResults = { users: [], users_build_growth: null, past_bookings: [], create_growth: null, list_growth: null };
  // Past bookings first: the users builds leave this process (the load generator) with a large heap.
  log('\n== past bookings');
  const dataset = await buildDataset({ now: Date.now() });
  const base = { ...dataset };
  for (const past of [10_000, 1_000_000]) results.past_bookings.push(await pastBookings(past, base, quick ? 3 : 8, log));
  const [small, large] = results.past_bookings as [ScaleResults['past_bookings'][number], ScaleResults['past_bookings'][number]];
  results.create_growth = Number((large.create_p50_ms / small.create_p50_ms).toFixed(2));
  results.list_growth = Number((large.list_p50_ms / small.list_p50_ms).toFixed(2));

  log('\n== uncached users build');
  for (const users of [10_000, 100_000]) results.users.push(await usersBuild(users, quick ? 3 : 9, log));
  results.users_build_growth = Number((results.users[1]!.build_p50_ms / results.users[0]!.build_p50_ms).toFixed(2));

  fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  fs.writeFileSync(CHART_FILE, scaleChart(results));
  log(`\nwrote ${path.relative(ROOT, RESULTS_FILE)} and ${path.relative(ROOT, CHART_FILE)}`);

  const missed: string[] = [];
  if (results.users_build_growth > SCALE_TARGETS.usersBuild100kOver10k) {
    missed.push(
      `uncached users build at 100k is ${results.users_build_growth}× its 10k time (target ≤ ${SCALE_TARGETS.usersBuild100kOver10k}×)`,
    );
  }
  for (const [what, growth] of [
    ['create p50', results.create_growth],
    ['public bookings list p50', results.list_growth],
  ] as const) {
    if (growth > SCALE_TARGETS.pastBookings1mOver10k) {
      missed.push(`${what} with 1M past bookings is ${growth}× its 10k figure (target ≤ ${SCALE_TARGETS.pastBookings1mOver10k}×)`);
    }
  }
  log(
    `users build ×${results.users_build_growth} (10k → 100k); create ×${results.create_growth}, list ×${results.list_growth} (10k → 1M past bookings)`,
  );
  if (missed.length > 0) {
    log(`\nTARGETS MISSED (${missed.length}):`);
    for (const line of missed) log(`  - ${line}`);
    process.exitCode = 1;
  } else {
    log('\nall scale targets met');
  }
}
