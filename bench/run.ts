// npm run bench — Sector side by side with the same-work reference (bench/reference-server.ts) in
// one run, every request target a ratio within the run; then the budgets of the background work
// (bench/README.md).
//   --quick            short warm-up and runs, for development
//   --scenario NAME    run only this scenario (repeatable)
//   --cpu-prof         profile Sector (node --cpu-prof) into bench/profiles/ and summarise it;
//                      profiling slows Sector down, so results.json is not written
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureControlCenter } from './lib/controlcenter.js';
import { buildDataset, type Dataset } from './lib/dataset.js';
import { exchange } from './lib/http.js';
import type { LoadTarget } from './lib/load.js';
import { measureFeed, measureRoster, ROSTER_MEMBERS } from './lib/network.js';
import { ROOT } from './lib/processes.js';
import { startReference, unlike, type ReferenceServer } from './lib/references.js';
import { measureBatch } from './lib/batch.js';
import { measureReports } from './lib/reports.js';
import {
  formatTable,
  mergedResults,
  missedTargets,
  noExtras,
  resultsJson,
  type Extras,
  type Results,
  type ScenarioRow,
} from './lib/report.js';
import { alternateRounds, type Durations } from './lib/rounds.js';
import { SCENARIOS, type Scenario } from './lib/scenarios.js';
import { copyDatabase, startSector, stopSector, type Sector } from './lib/sector.js';
import { slotSequence, type SlotSequence } from './lib/slots.js';
import { checkBookings } from './lib/verify.js';
import { measureWebhookLatency, preparePostgres } from './lib/webhook-latency.js';
import { formatSummary, summariseProfile, type CpuProfile } from './profile.js';

const RESULTS_FILE = path.join(ROOT, 'bench/results.json');
const PG_URL = process.env.PG_URL ?? 'postgres://root@127.0.0.1:5432/test';

const log = (line = ''): void => void process.stdout.write(`${line}\n`);
const message = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/** What the measurements after the request scenarios get. `dataset` is null when no request scenario or `webhooks` runs. */
interface MeasureContext {
  dataset: Dataset | null;
  slots: SlotSequence | null;
  durations: Durations;
  extras: Extras;
}

/** Measurements that are not requests to Sector against the reference, run after those, in this order. */
const MEASUREMENTS: Array<{ name: string; needsDataset: boolean; run: (context: MeasureContext) => Promise<void> }> = [
  { name: 'webhooks', needsDataset: true, run: runWebhooks },
  {
    name: 'feed',
    needsDataset: false,
    run: async ({ durations, extras }) =>
      void (extras.feed = await measureFeed({ seconds: durations.rounds === 1 ? 3 : 10, polls: 10, log })),
  },
  {
    name: 'roster',
    needsDataset: false,
    run: async ({ extras }) => void (extras.roster = await measureRoster({ members: ROSTER_MEMBERS, log })),
  },
  {
    name: 'controlcenter',
    needsDataset: false,
    run: async ({ extras }) => void (extras.controlcenter = await measureControlCenter({ log })),
  },
  { name: 'batch', needsDataset: true, run: runBatch },
  {
    name: 'reports',
    needsDataset: false,
    run: async ({ durations, extras }) =>
      void (extras.reports = await measureReports({ pgUrl: PG_URL, rounds: durations.rounds === 1 ? 20 : 100, log })),
  },
];

/** 100-booking batches against single creates, bookings/s of each (bench/lib/batch.ts). */
async function runBatch({ dataset, slots, durations, extras }: MeasureContext): Promise<void> {
  if (!dataset || !slots) throw new Error('no dataset');
  extras.batch = await measureBatch({ dataset, slots, quick: durations.rounds === 1, log });
  extras.failures.push(...extras.batch.failures);
}

interface Options {
  quick: boolean;
  scenarios: string[];
  cpuProf: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { quick: false, scenarios: [], cpuProf: false };
  const names = [...SCENARIOS.map((s) => s.name), ...MEASUREMENTS.map((m) => m.name)];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') options.quick = true;
    else if (arg === '--cpu-prof') options.cpuProf = true;
    else if (arg === '--scenario' || arg.startsWith('--scenario=')) {
      const name = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (name === undefined || !names.includes(name))
        throw new Error(`unknown scenario "${name}"; scenarios: ${names.map((n) => `"${n}"`).join(', ')}`);
      options.scenarios.push(name);
    } else throw new Error(`unknown option ${arg} (options: --quick, --scenario NAME, --cpu-prof)`);
  }
  return options;
}

function loadAverage(): number | null {
  try {
    return Number(fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]);
  } catch {
    return null;
  }
}

/** The load target of a scenario on a server; creates get a fresh slot each (shared by both sides: no two collide). */
function targetOf(scenario: Scenario, port: number, token: string, slots: SlotSequence): LoadTarget {
  const headers: Record<string, string> = scenario.key ? { authorization: `Bearer ${token}` } : {};
  if (scenario.body !== 'slots') return { port, method: scenario.method, path: scenario.path, headers };
  return {
    port,
    method: scenario.method,
    path: scenario.path,
    headers: { ...headers, 'content-type': 'application/json' },
    setupRequest: (req) => ({ ...req, body: slots.next() }),
  };
}

const once = (target: LoadTarget, slots: SlotSequence) => exchange({ ...target, ...(target.setupRequest ? { body: slots.next() } : {}) });

interface RunContext {
  sector: Sector;
  /** Sector's database file: a copy of the dataset, so the creates leave the dataset as it was for later scenarios. */
  sectorFile: string;
  reference: ReferenceServer;
  dataset: Dataset;
  slots: SlotSequence;
  durations: Durations;
}

async function runScenario(
  scenario: Scenario,
  { sector, sectorFile, reference, dataset, slots, durations }: RunContext,
): Promise<ScenarioRow> {
  const row: ScenarioRow = {
    name: scenario.name,
    connections: scenario.connections,
    sectorRps: null,
    referenceRps: null,
    sectorP99: null,
    referenceP99: null,
  };
  log(
    `\n== ${scenario.name}: ${scenario.method} ${scenario.path}${scenario.key ? ' (edit key)' : ''}, ${scenario.connections} connections`,
  );
  const sides = [
    { label: 'Sector', target: targetOf(scenario, sector.port, dataset.token, slots) },
    { label: 'reference', target: targetOf(scenario, reference.port, dataset.token, slots) },
  ];
  const captured = await once(sides[0]!.target, slots);
  if (captured.status !== scenario.expect) {
    row.failure = `Sector responded with ${captured.status}, expected ${scenario.expect}: ${captured.body.toString().slice(0, 200)}`;
    return row;
  }
  const differs = unlike(captured, await once(sides[1]!.target, slots), { write: scenario.body === 'slots' });
  if (differs.length > 0) {
    row.failure = `the reference does not return what Sector returns: ${differs.join('; ')}`;
    return row;
  }
  log(`   response: ${captured.status}, ${captured.body.length} bytes (the reference's is the same JSON)`);

  const [s, r] = await alternateRounds(
    sides,
    {
      connections: scenario.connections,
      warmup: durations.warmup,
      round: durations.round,
      rounds: durations.rounds,
      ...(scenario.minResponses ? { minResponses: durations.rounds === 1 ? 100 : scenario.minResponses } : {}),
    },
    log,
  );
  row.sectorRps = s!.median.rps;
  row.referenceRps = r!.median.rps;
  row.sectorP99 = s!.pooled?.p99 ?? s!.median.p99;
  row.referenceP99 = r!.pooled?.p99 ?? r!.median.p99;
  if (s!.pooled && r!.pooled) row.responses = [s!.pooled.responses, r!.pooled.responses];
  const problems: string[] = [];
  for (const side of [s!, r!]) {
    const bad = [side.warm, ...side.rounds].reduce((n, x) => n + x.non2xx + x.errors, 0);
    if (bad > 0) problems.push(`${bad} non-2xx responses or connection errors from ${side.label}`);
  }
  if (scenario.body === 'slots') {
    // Sector's database: no two live bookings of a position overlap, every acknowledged create is stored.
    const acknowledged = [s!.warm, ...s!.rounds].reduce((n, x) => n + x.ok, 1);
    const check = checkBookings(sectorFile, { from: slots.first });
    log(
      `   Sector's database: ${check.created} bookings of this run for ${acknowledged} acknowledged creates, ${check.overlaps.length} overlapping pairs`,
    );
    if (check.overlaps.length > 0) problems.push(`${check.overlaps.length} overlapping pairs of bookings`);
    if (check.created < acknowledged) problems.push(`${check.created} bookings stored for ${acknowledged} acknowledged creates`);
  }
  if (problems.length > 0) row.failure = problems.join('; ');
  return row;
}

/** Webhook delivery latency on a copy of the SQLite database, then on PostgreSQL (the division imported). */
async function runWebhooks({ dataset, slots, durations, extras }: MeasureContext): Promise<void> {
  if (!dataset || !slots) throw new Error('no dataset');
  const create = SCENARIOS.find((s) => s.body === 'slots')!;
  const target = (port: number, token: string) => targetOf(create, port, token, slots);
  const seconds = durations.rounds === 1 ? 5 : 15;
  const databaseFile = path.join(dataset.dir, 'webhooks.db');
  copyDatabase(dataset.databaseFile, databaseFile);
  const sqlite = await measureWebhookLatency({
    label: 'SQLite',
    databaseUrl: `sqlite:${databaseFile}`,
    token: dataset.token,
    create: target,
    seconds,
    log,
  });
  extras.webhookSqlite = sqlite;
  extras.failures.push(...sqlite.failures);
  const pg = await preparePostgres(PG_URL, path.join(dataset.dir, 'division.json'));
  try {
    const postgres = await measureWebhookLatency({
      label: 'PostgreSQL',
      databaseUrl: pg.databaseUrl,
      token: pg.token,
      create: target,
      seconds,
      log,
    });
    extras.webhookPostgres = postgres;
    extras.failures.push(...postgres.failures);
  } finally {
    await pg.drop();
  }
}

async function runRequests(
  selected: readonly Scenario[],
  context: Omit<RunContext, 'sector' | 'sectorFile' | 'reference'>,
  cpuProf: boolean,
) {
  const { dataset } = context;
  const referenceFile = path.join(dataset.dir, 'reference.db');
  copyDatabase(dataset.databaseFile, referenceFile);
  // Each side on its own copy: the webhook and batch scenarios after these copy the dataset as imported,
  // not as tens of thousands of creates left it (a batch's overlap checks then read a larger table).
  const sectorFile = path.join(dataset.dir, 'requests.db');
  copyDatabase(dataset.databaseFile, sectorFile);
  const sector = await startSector({ databaseUrl: `sqlite:${sectorFile}`, cpuProf, label: 'bench' });
  const reference = await startReference(referenceFile).catch(async (err: unknown) => {
    await stopSector(sector);
    throw err;
  });
  const rows: ScenarioRow[] = [];
  try {
    for (const scenario of selected) {
      // One broken scenario must not hide the others' numbers.
      const row = await runScenario(scenario, { ...context, sector, sectorFile, reference }).catch((err: unknown): ScenarioRow => ({
        name: scenario.name,
        connections: scenario.connections,
        sectorRps: null,
        referenceRps: null,
        sectorP99: null,
        referenceP99: null,
        failure: message(err),
      }));
      if (row.failure) log(`   FAILED: ${row.failure}`);
      rows.push(row);
    }
  } finally {
    const trouble = await stopSector(sector);
    if (trouble) log(trouble);
    await reference.stop();
  }
  return { rows, profileFile: sector.profileFile };
}

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  const wants = (name: string): boolean => options.scenarios.length === 0 || options.scenarios.includes(name);
  const selected = SCENARIOS.filter((s) => wants(s.name));
  const measurements = MEASUREMENTS.filter((m) => wants(m.name));
  const durations: Durations = options.quick ? { warmup: 1, round: 3, rounds: 1 } : { warmup: 3, round: 5, rounds: 3 };
  const loadBefore = loadAverage();
  log(
    `Sector benchmark: ${[...selected, ...measurements].map((s) => s.name).join(', ')}; warm-up ${durations.warmup} s, ` +
      `${durations.rounds} rounds of ${durations.round} s or more; ${os.cpus().length} CPUs, Node ${process.version}`,
  );
  if (loadBefore !== null && loadBefore > 0.5)
    log(`warning: load average ${loadBefore} before start — other CPU load distorts the results`);

  const extras = noExtras();
  const context: MeasureContext = { dataset: null, slots: null, durations, extras };
  let rows: ScenarioRow[] = [];
  let profileFile: string | null = null;
  if (selected.length > 0 || measurements.some((m) => m.needsDataset)) {
    const now = Date.now();
    const dataset = await buildDataset({ now });
    log(`dataset: ${dataset.imported}`);
    const slots = slotSequence({ now, callsigns: dataset.callsigns, userIds: dataset.userIds });
    Object.assign(context, { dataset, slots });
    if (selected.length > 0) ({ rows, profileFile } = await runRequests(selected, { dataset, slots, durations }, options.cpuProf));
  }
  // After the request scenarios' servers have stopped: nothing else competes for the CPU.
  for (const measurement of measurements) {
    log(`\n== ${measurement.name}`);
    await measurement.run(context).catch((err: unknown) => void extras.failures.push(`${measurement.name}: ${message(err)}`));
  }

  const results = resultsJson(rows, extras);
  log(`\n${formatTable(results)}`);
  log(`load average: ${loadBefore} before, ${loadAverage()} after (the sides of a scenario never ran at the same time)`);
  if (profileFile !== null) {
    if (fs.existsSync(profileFile)) {
      log(`\nCPU profile: ${path.relative(ROOT, profileFile)}`);
      log(formatSummary(summariseProfile(JSON.parse(fs.readFileSync(profileFile, 'utf8')) as CpuProfile), { top: 25 }));
    }
    log('\n(profiling on: results.json not written)');
  } else {
    // A run of some scenarios keeps the figures of the others from the last run.
    const earlier =
      options.scenarios.length > 0 && fs.existsSync(RESULTS_FILE)
        ? (JSON.parse(fs.readFileSync(RESULTS_FILE, 'utf8')) as Partial<Results>)
        : null;
    fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(mergedResults(earlier, results), null, 2)}\n`);
    log(`wrote ${path.relative(ROOT, RESULTS_FILE)}`);
  }

  const missed = missedTargets(results, rows, extras);
  if (missed.length > 0) {
    log(`\nTARGETS MISSED (${missed.length}):`);
    for (const line of missed) log(`  - ${line}`);
    process.exitCode = 1;
  } else {
    log('\nall targets met');
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench: ${message(err)}\n`);
  process.exit(1);
});
