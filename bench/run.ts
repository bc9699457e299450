// npm run bench — Sector side by side with the raw-socket limit (a bare node:http server sending
// the same bytes), in one run. See README "Performance". Options:
//   --quick            short warm-up and runs, for development
//   --scenario NAME    run only this scenario (repeatable)
//   --cpu-prof         profile Sector (node --cpu-prof) into bench/profiles/ and summarise it;
//                      profiling slows Sector down, so results.json is not written
//   --webhook          register a webhook subscription to a fast local receiver first, so every
//                      write also fans out and is delivered (compare the create rate with and
//                      without it); results.json is not written
//   --network-delay MS run the scenarios again with network sync configured against a stand-in of
//                      the network's bookings service that answers after MS milliseconds, and
//                      compare: the API must not wait for the network (target: >= 80% of the rate)
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Capture } from './baseline-server.js';
import { buildDataset, type Dataset } from './lib/dataset.js';
import { differences, exchange, type Exchanged } from './lib/http.js';
import { load, medianRound, type LoadTarget, type RoundResult } from './lib/load.js';
import { ROOT, freePort, peakRssMb, plainNodeScript, startNode, waitUntil, type NodeProcess } from './lib/processes.js';
import { formatTable, missedTargets, resultsJson, type ScenarioRow } from './lib/report.js';
import { SCENARIOS, type Scenario } from './lib/scenarios.js';
import { slotSequence, type SlotSequence } from './lib/slots.js';
import { countUsersStatements } from './lib/sql-count.js';
import { checkBookings } from './lib/verify.js';
import { summariseProfile, formatSummary, type CpuProfile } from './profile.js';
import { openDatabase } from '../src/db/connection.js';
import { WebhookSubscriptions } from '../src/services/webhooks/subscriptions.js';
import { startNetworkStandIn } from '../test/support/network-stand-in.js';

const RESULTS_FILE = path.join(ROOT, 'bench/results.json');
const PROFILE_DIR = path.join(ROOT, 'bench/profiles');

interface Options {
  quick: boolean;
  scenarios: string[];
  cpuProf: boolean;
  webhook: boolean;
  /** Answer delay of the network stand-in; null: no run with network sync. */
  networkDelay: number | null;
}

/** A receiver that answers every delivery at once, counting them; registered as a subscription. */
async function startFastReceiver(databaseUrl: string): Promise<{ deliveries: () => number; close: () => void }> {
  let deliveries = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      deliveries++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as import('node:net').AddressInfo;
  const db = openDatabase(databaseUrl);
  try {
    await new WebhookSubscriptions(db, Date.now).add(`http://127.0.0.1:${port}/bench`, null);
  } finally {
    await db.close();
  }
  return { deliveries: () => deliveries, close: () => server.close() };
}

interface Durations {
  /** Seconds. */
  warmup: number;
  /** Seconds. */
  round: number;
  rounds: number;
}

type Sector = NodeProcess & { port: number; profileFile: string | null };

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { quick: false, scenarios: [], cpuProf: false, webhook: false, networkDelay: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') options.quick = true;
    else if (arg === '--cpu-prof') options.cpuProf = true;
    else if (arg === '--webhook') options.webhook = true;
    else if (arg === '--network-delay' || arg.startsWith('--network-delay=')) {
      const ms = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (ms === undefined || !/^\d{1,6}$/.test(ms)) throw new Error(`--network-delay takes milliseconds (got "${ms}")`);
      options.networkDelay = Number(ms);
    } else if (arg === '--scenario' || arg.startsWith('--scenario=')) {
      const name = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (name === undefined || !SCENARIOS.some((s) => s.name === name)) {
        throw new Error(`unknown scenario "${name}"; scenarios: ${SCENARIOS.map((s) => `"${s.name}"`).join(', ')}`);
      }
      options.scenarios.push(name);
    } else throw new Error(`unknown option ${arg} (options: --quick, --scenario NAME, --cpu-prof, --webhook, --network-delay MS)`);
  }
  return options;
}

const log = (line = ''): void => void process.stdout.write(`${line}\n`);
const fixed = (n: number | null | undefined, d = 1): string => (n === null || n === undefined ? '—' : n.toFixed(d));

function loadAverage(): number | null {
  try {
    return Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return null;
  }
}

async function startSector({
  databaseUrl,
  cpuProf,
  label,
  env = {},
}: {
  databaseUrl: string;
  cpuProf: boolean;
  label: string;
  env?: Record<string, string>;
}): Promise<Sector> {
  const port = await freePort();
  const profileFile = cpuProf ? path.join(PROFILE_DIR, `sector-${label}-${Date.now()}.cpuprofile`) : null;
  const nodeArgs = profileFile ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR, '--cpu-prof-name', path.basename(profileFile)] : [];
  const sector = startNode(path.join(ROOT, 'dist/server.js'), {
    name: 'Sector',
    nodeArgs,
    env: {
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      RATE_LIMIT: '0',
      LOG_LEVEL: 'warn',
      DIVISION: 'EUD',
      SUBDIVISIONS: 'SCA',
      API_VARIANT: 'newer',
      API_COMPAT: 'none',
      ...env,
    },
  });
  await waitUntil(
    async () => {
      const res = await exchange({ port, path: '/health' });
      if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
    },
    { process: sector },
  );
  return { ...sector, port, profileFile };
}

async function startBaseline(capture: Exchanged, dir: string, name: string): Promise<NodeProcess & { port: number }> {
  const file = path.join(dir, `capture-${name.replace(/\W+/g, '-')}.json`);
  const saved: Capture = { status: capture.status, rawHeaders: capture.rawHeaders, body: capture.body.toString('base64') };
  fs.writeFileSync(file, JSON.stringify(saved));
  const baseline = startNode(plainNodeScript('baseline-server.ts'), { name: 'baseline', args: [file] });
  let stdout = '';
  baseline.onStdout((c) => (stdout += c.toString()));
  const port = await waitUntil(
    async () => {
      const m = /^(\d+)\n/.exec(stdout);
      if (!m) throw new Error('no port yet');
      return Number(m[1]);
    },
    { process: baseline, timeoutMs: 10_000 },
  );
  return { ...baseline, port };
}

interface ScenarioRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

function requestOf(scenario: Scenario, token: string, slots: SlotSequence): ScenarioRequest {
  const headers: Record<string, string> = scenario.key ? { authorization: `Bearer ${token}` } : {};
  if (scenario.body !== 'slots') return { method: scenario.method, path: scenario.path, headers };
  return { method: scenario.method, path: scenario.path, headers: { ...headers, 'content-type': 'application/json' }, body: slots.next() };
}

async function runScenario(
  scenario: Scenario,
  { sector, dataset, slots, durations }: { sector: Sector; dataset: Dataset; slots: SlotSequence; durations: Durations },
): Promise<ScenarioRow> {
  const row: ScenarioRow = {
    name: scenario.name,
    connections: scenario.connections,
    sectorRps: null,
    baselineRps: null,
    p50: null,
    p99: null,
  };
  const request = requestOf(scenario, dataset.token, slots);
  log(
    `\n== ${scenario.name}: ${scenario.method} ${scenario.path}${scenario.key ? ' (edit key)' : ''}, ${scenario.connections} connections`,
  );

  const capture = await exchange({ port: sector.port, ...request });
  if (capture.status !== scenario.expect) {
    const hint = capture.status === 404 ? ' — is the route there yet?' : '';
    row.failure = `${scenario.method} ${scenario.path} answered ${capture.status}, expected ${scenario.expect}${hint}: ${capture.body.toString().slice(0, 200)}`;
    log(`   FAILED: ${row.failure}`);
    return row;
  }
  log(`   response: ${capture.status}, ${capture.body.length} bytes`);

  const target: LoadTarget = { port: sector.port, method: request.method, path: request.path, headers: request.headers };
  if (scenario.body === 'slots') target.setupRequest = (req) => ({ ...req, body: slots.next() });
  const settings = { connections: scenario.connections, duration: durations.round };
  const show = (who: string, r: RoundResult): void =>
    log(
      `   ${who}: ${fixed(r.rps)} req/s (2xx), p50 ${r.p50} ms, p99 ${r.p99} ms, status ${JSON.stringify(r.statusCodes)}` +
        (r.errors || r.timeouts ? `, errors ${r.errors}, timeouts ${r.timeouts}` : ''),
    );

  // Sector and the baseline take turns, never loaded at the same time: on two cores the load
  // generator needs one, and concurrent load would distort both. Alternating rounds spreads any
  // outside load over both sides; each side reports its median round.
  const baseline = await startBaseline(capture, dataset.dir, scenario.name);
  const sectorRounds: RoundResult[] = [];
  const baselineRounds: RoundResult[] = [];
  let sectorWarm: RoundResult;
  try {
    const same = differences(capture, await exchange({ port: baseline.port, ...requestOf(scenario, dataset.token, slots) }));
    if (same.length > 0) throw new Error(`baseline does not answer Sector's bytes: ${same.join('; ')}`);
    const baselineTarget = { ...target, port: baseline.port };
    sectorWarm = await load(target, { ...settings, duration: durations.warmup });
    await load(baselineTarget, { ...settings, duration: durations.warmup });
    for (let round = 0; round < durations.rounds; round++) {
      const sectorRound = await load(target, settings);
      sectorRounds.push(sectorRound);
      show(`Sector   round ${round + 1}`, sectorRound);
      const baselineRound = await load(baselineTarget, settings);
      baselineRounds.push(baselineRound);
      show(`baseline round ${round + 1}`, baselineRound);
    }
  } finally {
    await baseline.stop();
  }
  const m = medianRound(sectorRounds);
  row.sectorRps = m.rps;
  row.p50 = m.p50;
  row.p99 = m.p99;
  row.baselineRps = medianRound(baselineRounds).rps;
  row.rssAfter = peakRssMb(sector.pid);
  log(
    `   median rounds: Sector ${fixed(row.sectorRps)} req/s, baseline ${fixed(row.baselineRps)} req/s; Sector RSS peak so far ${fixed(row.rssAfter)} MB`,
  );
  const bad = [sectorWarm, ...sectorRounds].reduce((n, r) => n + r.non2xx + r.errors, 0);
  if (bad > 0) row.failure = `${bad} non-2xx answers or connection errors from Sector (warm-up and rounds)`;

  if (scenario.body === 'slots') {
    const acknowledged = [sectorWarm, ...sectorRounds].reduce((n, r) => n + r.ok, 1);
    const check = checkBookings(dataset.databaseFile, { from: slots.first });
    log(
      `   database: ${check.liveBookings} live bookings, ${check.created} from this run for ${acknowledged} acknowledged creates, ` +
        `${check.overlaps.length} overlapping pairs`,
    );
    const problems: string[] = [];
    const [overlap] = check.overlaps;
    if (overlap) problems.push(`overlap check failed: ${check.overlaps.length} overlapping pairs, e.g. ids ${overlap.join(' and ')}`);
    // In-flight requests at the end of a run may commit without their answer being counted.
    if (check.created < acknowledged || check.created > slots.issued) {
      problems.push(`${check.created} bookings stored for ${acknowledged} acknowledged creates (${slots.issued} bodies issued)`);
    }
    if (problems.length > 0) row.failure = [row.failure, ...problems].filter(Boolean).join('; ');
  }
  return row;
}

async function runScenarios(
  selected: readonly Scenario[],
  context: { sector: Sector; dataset: Dataset; slots: SlotSequence; durations: Durations },
): Promise<ScenarioRow[]> {
  const rows: ScenarioRow[] = [];
  for (const scenario of selected) {
    try {
      rows.push(await runScenario(scenario, context));
    } catch (err) {
      // One broken scenario must not hide the others' numbers.
      const failure = err instanceof Error ? err.message : String(err);
      log(`   FAILED: ${failure}`);
      rows.push({
        name: scenario.name,
        connections: scenario.connections,
        sectorRps: null,
        baselineRps: null,
        p50: null,
        p99: null,
        failure,
      });
    }
  }
  return rows;
}

async function stopSector(sector: Sector): Promise<void> {
  const exit = await sector.stop();
  if (exit.code !== 0) log(`Sector exited with ${exit.signal ?? `code ${exit.code}`}:\n${sector.output()}`);
}

/** Share of the rate without sync that writes must keep with sync to a slow network. */
const NETWORK_SYNC_TARGET = 0.8;

/**
 * Each scenario on two Sectors side by side: one as configured, one with every write owed to a
 * stand-in of the network's bookings service that answers after `delayMs`. Rounds alternate
 * between the two, so outside load falls on both alike; each gets its own copy of the database.
 * Pushes run after commit, so the rates must stay close. Returns the targets missed.
 */
async function compareWithNetworkSync(
  delayMs: number,
  context: { selected: readonly Scenario[]; dataset: Dataset; slots: SlotSequence; durations: Durations; label: string },
): Promise<string[]> {
  const key = 'bench-network-key';
  const network = await startNetworkStandIn([{ token: key }]);
  network.setDelay(delayMs);
  const copy = path.join(context.dataset.dir, 'with-network-sync.db');
  fs.copyFileSync(context.dataset.databaseFile, copy);
  for (const suffix of ['-wal', '-shm']) {
    if (fs.existsSync(context.dataset.databaseFile + suffix)) fs.copyFileSync(context.dataset.databaseFile + suffix, copy + suffix);
  }
  log(`\n==== network sync: rounds alternate between Sector without sync and Sector pushing to a stand-in answering after ${delayMs} ms`);
  const missed: string[] = [];
  let plain: Sector | undefined;
  let synced: Sector | undefined;
  try {
    plain = await startSector({ databaseUrl: context.dataset.databaseUrl, cpuProf: false, label: `${context.label}-plain` });
    synced = await startSector({
      databaseUrl: `sqlite:${copy}`,
      cpuProf: false,
      label: `${context.label}-network`,
      env: { NETWORK_BOOKINGS_URL: network.url, NETWORK_BOOKINGS_KEY: key },
    });
    const rounds = Math.max(context.durations.rounds, 3);
    for (const scenario of context.selected) {
      log(`\n== ${scenario.name} with and without network sync, ${scenario.connections} connections, ${rounds} rounds each`);
      const target = (port: number): LoadTarget => {
        const request = requestOf(scenario, context.dataset.token, context.slots);
        const t: LoadTarget = { port, method: request.method, path: request.path, headers: request.headers };
        if (scenario.body === 'slots') t.setupRequest = (req) => ({ ...req, body: context.slots.next() });
        return t;
      };
      const settings = { connections: scenario.connections, duration: context.durations.round };
      await load(target(plain.port), { ...settings, duration: context.durations.warmup });
      await load(target(synced.port), { ...settings, duration: context.durations.warmup });
      const without: RoundResult[] = [];
      const withSync: RoundResult[] = [];
      for (let round = 0; round < rounds; round++) {
        without.push(await load(target(plain.port), settings));
        withSync.push(await load(target(synced.port), settings));
        log(`   round ${round + 1}: without ${fixed(without.at(-1)!.rps)} req/s, with sync ${fixed(withSync.at(-1)!.rps)} req/s`);
      }
      const a = medianRound(without);
      const b = medianRound(withSync);
      const ratio = a.rps > 0 ? b.rps / a.rps : 0;
      const bad = [...without, ...withSync].reduce((n, r) => n + r.non2xx + r.errors, 0);
      log(
        `   median: without sync ${fixed(a.rps)} req/s (p99 ${a.p99} ms), with sync ${fixed(b.rps)} req/s (p99 ${b.p99} ms): ${(ratio * 100).toFixed(0)}%`,
      );
      log(`   the stand-in received ${network.count('POST')} creates so far (each answered after ${delayMs} ms)`);
      if (bad > 0) missed.push(`${scenario.name} with/without network sync: ${bad} non-2xx answers or connection errors`);
      if (ratio < NETWORK_SYNC_TARGET) {
        missed.push(
          `${scenario.name} with network sync keeps ${(ratio * 100).toFixed(0)}% of its rate without (target ${NETWORK_SYNC_TARGET * 100}%)`,
        );
      }
    }
  } finally {
    if (plain) await stopSector(plain);
    if (synced) await stopSector(synced);
    await network.close();
  }
  return missed;
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const selected = options.scenarios.length > 0 ? SCENARIOS.filter((s) => options.scenarios.includes(s.name)) : SCENARIOS;
  const durations = options.quick ? { warmup: 1, round: 3, rounds: 1 } : { warmup: 3, round: 5, rounds: 3 };
  const loadBefore = loadAverage();
  log(
    `Sector benchmark: ${selected.map((s) => s.name).join(', ')}; warm-up ${durations.warmup} s, ${durations.rounds} × ${durations.round} s rounds each; ` +
      `${os.cpus().length} CPUs, Node ${process.version}`,
  );
  if (loadBefore !== null && loadBefore > 0.5) {
    log(`warning: load average ${loadBefore} before start — other CPU load distorts the results`);
  }

  const now = Date.now();
  const dataset = await buildDataset({ now });
  log(`dataset: ${dataset.imported}`);
  const slots = slotSequence({ now, callsigns: dataset.callsigns, userIds: dataset.userIds });

  const rows: ScenarioRow[] = [];
  let sqlStatements: number | null = null;
  const users = selected.find((s) => s.name === 'users');
  if (users) {
    // In this process, before Sector starts: nothing else competes for the CPU.
    const env = { RATE_LIMIT: '0', LOG_LEVEL: 'silent', DIVISION: 'EUD', SUBDIVISIONS: 'SCA', API_VARIANT: 'newer', API_COMPAT: 'none' };
    const counted = await countUsersStatements({ databaseUrl: dataset.databaseUrl, env, path: users.path, token: dataset.token });
    if (counted.ok) {
      sqlStatements = counted.statements;
      log(
        `users in-process: ${counted.users} users, ${counted.bytes} bytes; cold ${fixed(counted.coldMs)} ms with ` +
          `${counted.statements} SQL statements, cached ${fixed(counted.warmMs)} ms with ${counted.warmStatements}`,
      );
    } else {
      log(`users in-process: answered ${counted.status}: ${counted.message}`);
    }
  }

  const receiver = options.webhook ? await startFastReceiver(dataset.databaseUrl) : null;
  if (receiver) log('webhook: a subscription to a local receiver answering 204 is registered');
  const label = options.scenarios.length > 0 ? options.scenarios.join('+').replace(/\W+/g, '-') : 'all';
  const sector = await startSector({ databaseUrl: dataset.databaseUrl, cpuProf: options.cpuProf, label });
  let peakRss: number | null;
  try {
    rows.push(...(await runScenarios(selected, { sector, dataset, slots, durations })));
    peakRss = peakRssMb(sector.pid);
  } finally {
    await stopSector(sector);
  }
  const networkMissed =
    options.networkDelay === null ? [] : await compareWithNetworkSync(options.networkDelay, { selected, dataset, slots, durations, label });

  const results = resultsJson(rows, peakRss, sqlStatements);
  if (receiver) {
    log(`webhook: the receiver got ${receiver.deliveries()} deliveries`);
    receiver.close();
  }
  log('');
  log(formatTable(results, rows));
  log(`load average: ${loadBefore} before, ${loadAverage()} after (Sector and baseline never ran at the same time)`);

  if (sector.profileFile !== null) {
    const file = sector.profileFile;
    if (fs.existsSync(file)) {
      log(`\nCPU profile: ${path.relative(ROOT, file)}`);
      log(formatSummary(summariseProfile(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile), { top: 25 }));
    } else {
      log(`\nno CPU profile was written (${path.relative(ROOT, file)})`);
    }
    log('\n(profiling on: results.json not written)');
  } else if (receiver) {
    log('(webhook on: results.json not written)');
  } else {
    fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
    log(`wrote ${path.relative(ROOT, RESULTS_FILE)}`);
  }

  const missed = [...missedTargets(results, rows), ...networkMissed];
  if (missed.length > 0) {
    log(`\nTARGETS MISSED (${missed.length}):`);
    for (const line of missed) log(`  - ${line}`);
    process.exitCode = 1;
  } else {
    log('\nall targets met');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
