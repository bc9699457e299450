// npm run bench — Sector side by side with a plain Fastify route and a bare node:http server, both
// sending the same bytes, in one run; every target a ratio within the run (bench/README.md).
//   --quick            short warm-up and runs, for development
//   --scenario NAME    run only this scenario (repeatable; `webhooks`: the delivery latency on SQLite and PostgreSQL;
//                      `feed`: a poll's CPU and GET p99 during polls; `roster`: roster:sync of 100,000 members)
//   --cpu-prof         profile Sector (node --cpu-prof; both sides of create) into bench/profiles/ and summarise it;
//                      profiling slows Sector down, so results.json is not written
//   --network-delay MS the stand-in of the network's bookings service answers after MS ms (default 0)
//   --scale            the scale curves instead (bench/scale.ts): 10k and 100k users, 10k and 1M past bookings
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDataset, type Dataset } from './lib/dataset.js';
import { differences, exchange } from './lib/http.js';
import type { LoadTarget } from './lib/load.js';
import { ROOT, peakRssMb } from './lib/processes.js';
import { startReference, type ReferenceServer } from './lib/references.js';
import { formatTable, missedTargets, noExtras, resultsJson, type Extras, type ScenarioRow } from './lib/report.js';
import { alternateRounds, type Durations, type Side } from './lib/rounds.js';
import { SCENARIOS, TARGETS, type Scenario } from './lib/scenarios.js';
import { copyDatabase, startFanout, startSector, stopSector, type Fanout, type Sector } from './lib/sector.js';
import { slotSequence, type SlotSequence } from './lib/slots.js';
import { countUsersStatements } from './lib/sql-count.js';
import { measureUsersWithWrites } from './lib/users-with-writes.js';
import { measureWebhookLatency, preparePostgres } from './lib/webhook-latency.js';
import { measureFeed, measureRoster, ROSTER_MEMBERS } from './lib/network.js';
import { checkBookings } from './lib/verify.js';
import { summariseProfile, formatSummary, type CpuProfile } from './profile.js';
import { runScale } from './scale.js';

const RESULTS_FILE = path.join(ROOT, 'bench/results.json');
/** Not a request scenario: webhook delivery latency at a steady rate of creates (lib/webhook-latency.ts). */
const WEBHOOKS = 'webhooks';
/** Not request scenarios either: the data feed and the roster (lib/network.ts), each with processes of its own. */
const FEED = 'feed';
const ROSTER = 'roster';
const OTHER_SCENARIOS = [WEBHOOKS, FEED, ROSTER];
const PG_URL = process.env.PG_URL ?? 'postgres://root@127.0.0.1:5432/test';

interface Options {
  quick: boolean;
  scenarios: string[];
  cpuProf: boolean;
  networkDelay: number;
  scale: boolean;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { quick: false, scenarios: [], cpuProf: false, networkDelay: 0, scale: false };
  const value = (arg: string, i: number): [string | undefined, number] =>
    arg.includes('=') ? [arg.slice(arg.indexOf('=') + 1), i] : [argv[i + 1], i + 1];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--quick') options.quick = true;
    else if (arg === '--cpu-prof') options.cpuProf = true;
    else if (arg === '--scale') options.scale = true;
    else if (arg === '--network-delay' || arg.startsWith('--network-delay=')) {
      const [ms, next] = value(arg, i);
      i = next;
      if (ms === undefined || !/^\d{1,6}$/.test(ms)) throw new Error(`--network-delay takes milliseconds (got "${ms}")`);
      options.networkDelay = Number(ms);
    } else if (arg === '--scenario' || arg.startsWith('--scenario=')) {
      const [name, next] = value(arg, i);
      i = next;
      if (name === undefined || (!OTHER_SCENARIOS.includes(name) && !SCENARIOS.some((s) => s.name === name))) {
        throw new Error(
          `unknown scenario "${name}"; scenarios: ${[...SCENARIOS.map((s) => s.name), ...OTHER_SCENARIOS].map((n) => `"${n}"`).join(', ')}`,
        );
      }
      options.scenarios.push(name);
    } else throw new Error(`unknown option ${arg} (options: --quick, --scenario NAME, --cpu-prof, --network-delay MS, --scale)`);
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

function targetOf(scenario: Scenario, port: number, context: { dataset: Dataset; slots: SlotSequence }): LoadTarget {
  const request = requestOf(scenario, context.dataset.token, context.slots);
  const target: LoadTarget = { port, method: request.method, path: request.path, headers: request.headers };
  if (scenario.body === 'slots') target.setupRequest = (req) => ({ ...req, body: context.slots.next() });
  return target;
}

interface RunContext {
  sector: Sector;
  /** A second Sector, paused between its rounds, that fans every write out (create only). */
  configured: { sector: Sector; fanout: Fanout; databaseFile: string } | null;
  dataset: Dataset;
  slots: SlotSequence;
  durations: Durations;
  extras: Extras;
  /** Creates acknowledged so far by each Sector (its database keeps them all). */
  acknowledged: { sector: number; configured: number };
}

/** Every acknowledged create left its booking, and no two live bookings of a position overlap. */
function verifyCreates(databaseFile: string, acknowledged: number, slots: SlotSequence, label: string): string[] {
  const check = checkBookings(databaseFile, { from: slots.first });
  log(
    `   database of ${label}: ${check.liveBookings} live bookings, ${check.created} from this run for ${acknowledged} acknowledged creates, ` +
      `${check.overlaps.length} overlapping pairs`,
  );
  const problems: string[] = [];
  const [overlap] = check.overlaps;
  if (overlap) problems.push(`${label}: ${check.overlaps.length} overlapping pairs, e.g. ids ${overlap.join(' and ')}`);
  // In-flight requests at the end of a run may commit without their answer being counted.
  if (check.created < acknowledged || check.created > slots.issued) {
    problems.push(`${label}: ${check.created} bookings stored for ${acknowledged} acknowledged creates (${slots.issued} bodies issued)`);
  }
  return problems;
}

async function runScenario(scenario: Scenario, context: RunContext): Promise<ScenarioRow> {
  const { sector, dataset, slots, durations } = context;
  const row: ScenarioRow = {
    name: scenario.name,
    connections: scenario.connections,
    sectorRps: null,
    fastifyRps: null,
    baselineRps: null,
    p50: null,
    p99: null,
    baselineP99: null,
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

  const references: ReferenceServer[] = [];
  try {
    const spec = { capture, dir: dataset.dir, name: scenario.name, method: scenario.method, url: scenario.path };
    for (const kind of ['Fastify', 'baseline'] as const) {
      const server = await startReference(kind, spec);
      references.push(server);
      const same = differences(capture, await exchange({ port: server.port, ...requestOf(scenario, dataset.token, slots) }));
      if (same.length > 0) throw new Error(`${kind} does not answer Sector's bytes: ${same.join('; ')}`);
    }
    const [fastify, baseline] = references as [ReferenceServer, ReferenceServer];
    const sides: Side[] = [{ label: 'Sector', target: targetOf(scenario, sector.port, context) }];
    const configured = scenario.body === 'slots' ? context.configured : null;
    if (configured) {
      sides.push({
        label: 'Sector+',
        target: targetOf(scenario, configured.sector.port, context),
        before: () => configured.sector.resume(),
        after: () => configured.sector.pause(),
      });
      log('   Sector+: webhooks, network sync and the audit log configured (paused between its rounds)');
    }
    sides.push({ label: 'Fastify', target: targetOf(scenario, fastify.port, context) });
    sides.push({ label: 'baseline', target: targetOf(scenario, baseline.port, context) });

    const users = scenario.name === 'users';
    const outcomes = await alternateRounds(
      sides,
      {
        connections: scenario.connections,
        warmup: durations.warmup,
        round: durations.round,
        rounds: durations.rounds,
        ...(users ? { minResponses: durations.rounds === 1 ? 100 : TARGETS.usersMinResponses } : {}),
      },
      log,
    );
    const of = (label: string) => outcomes.find((o) => o.label === label)!;
    const [s, f, b] = [of('Sector'), of('Fastify'), of('baseline')];
    row.sectorRps = s.median.rps;
    row.fastifyRps = f.median.rps;
    row.baselineRps = b.median.rps;
    row.p50 = s.pooled?.p50 ?? s.median.p50;
    row.p99 = s.pooled?.p99 ?? s.median.p99;
    row.baselineP99 = b.pooled?.p99 ?? b.median.p99;
    if (s.pooled && b.pooled) {
      row.responses = s.pooled.responses;
      row.baselineResponses = b.pooled.responses;
      log(
        `   pooled: Sector ${s.pooled.responses} answers, p50 ${fixed(s.pooled.p50)} ms, p99 ${fixed(s.pooled.p99)} ms; baseline ${b.pooled.responses} answers, p99 ${fixed(b.pooled.p99)} ms`,
      );
    }
    row.rssAfter = peakRssMb(sector.pid);
    log(
      `   median rounds: Sector ${fixed(row.sectorRps)}, Fastify ${fixed(row.fastifyRps)}, baseline ${fixed(row.baselineRps)} req/s; Sector RSS peak so far ${fixed(row.rssAfter)} MB`,
    );
    const bad = [s.warm, ...s.rounds].reduce((n, r) => n + r.non2xx + r.errors, 0);
    const problems: string[] = bad > 0 ? [`${bad} non-2xx answers or connection errors from Sector (warm-up and rounds)`] : [];

    if (scenario.body === 'slots') {
      const acknowledged = (label: string) => [of(label).warm, ...of(label).rounds].reduce((n, r) => n + r.ok, 0);
      // The captured request created one booking too.
      context.acknowledged.sector += acknowledged('Sector') + 1;
      problems.push(...verifyCreates(dataset.databaseFile, context.acknowledged.sector, slots, 'Sector'));
      if (configured) {
        const plus = of('Sector+');
        const badPlus = [plus.warm, ...plus.rounds].reduce((n, r) => n + r.non2xx + r.errors, 0);
        if (badPlus > 0) problems.push(`${badPlus} non-2xx answers or connection errors from Sector+`);
        context.acknowledged.configured += acknowledged('Sector+');
        problems.push(...verifyCreates(configured.databaseFile, context.acknowledged.configured, slots, 'Sector+'));
        context.extras.createNoneConfiguredRps = s.median.rps;
        context.extras.createAllConfiguredRps = plus.median.rps;
        log(
          `   Sector+ ${fixed(plus.median.rps)} creates/s (${fixed((plus.median.rps / s.median.rps) * 100, 0)}% of Sector's); so far its receiver got ` +
            `${configured.fanout.deliveries()} webhook deliveries and the network stand-in ${configured.fanout.network.count('POST')} pushes`,
        );
      }
    }
    if (problems.length > 0) row.failure = problems.join('; ');
  } finally {
    for (const server of references) await server.stop();
  }

  return row;
}

/** Users read while bookings are created, against the read-only users scenario just measured. */
async function runUsersWithWrites(scenario: Scenario, readOnlyP50: number, context: RunContext): Promise<void> {
  const { sector, slots, dataset, durations } = context;
  context.extras.usersReadOnlyP50 = readOnlyP50;
  const withWrites = await measureUsersWithWrites({
    sector,
    users: targetOf(scenario, sector.port, context),
    create: targetOf(
      SCENARIOS.find((s) => s.body === 'slots')!,
      sector.port,
      context,
    ),
    connections: scenario.connections,
    durations,
    minResponses: durations.rounds === 1 ? 100 : TARGETS.usersMinResponses,
    log,
  });
  context.extras.usersWithWritesP50 = withWrites.p50;
  context.extras.usersWithWritesCreateRate = withWrites.createRate;
  context.extras.failures.push(...withWrites.failures);
  context.acknowledged.sector += withWrites.creates;
  context.extras.failures.push(
    ...verifyCreates(dataset.databaseFile, context.acknowledged.sector, slots, 'Sector after users with writes'),
  );
}

async function runScenarios(selected: readonly Scenario[], context: RunContext): Promise<ScenarioRow[]> {
  const rows: ScenarioRow[] = [];
  for (const scenario of selected) {
    try {
      const row = await runScenario(scenario, context);
      rows.push(row);
      if (scenario.name === 'users' && row.p50 !== null) await runUsersWithWrites(scenario, row.p50, context);
    } catch (err) {
      // One broken scenario must not hide the others' numbers.
      const failure = err instanceof Error ? err.message : String(err);
      log(`   FAILED: ${failure}`);
      rows.push({
        name: scenario.name,
        connections: scenario.connections,
        sectorRps: null,
        fastifyRps: null,
        baselineRps: null,
        p50: null,
        p99: null,
        baselineP99: null,
        failure,
      });
    }
  }
  return rows;
}

/** Webhook delivery latency on a copy of the SQLite database, then on PostgreSQL (the division imported). */
async function runWebhooks(context: Pick<RunContext, 'dataset' | 'slots' | 'durations' | 'extras'>): Promise<void> {
  const { dataset, slots, durations, extras } = context;
  const create = SCENARIOS.find((s) => s.body === 'slots')!;
  const target = (port: number, token: string) => targetOf(create, port, { dataset: { ...dataset, token }, slots });
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

async function main(): Promise<void> {
  const options = parseArgs(process.argv.slice(2));
  if (options.scale) return runScale({ quick: options.quick, log });
  const selected = options.scenarios.length > 0 ? SCENARIOS.filter((s) => options.scenarios.includes(s.name)) : SCENARIOS;
  const wants = (name: string): boolean => options.scenarios.length === 0 || options.scenarios.includes(name);
  // The feed and the roster bring their own databases and processes: the division is not needed for them.
  const sectorRuns = selected.length > 0 || wants(WEBHOOKS);
  const names = [...selected.map((s) => s.name), ...OTHER_SCENARIOS.filter(wants)];
  const durations: Durations = options.quick ? { warmup: 1, round: 3, rounds: 1 } : { warmup: 3, round: 5, rounds: 3 };
  const loadBefore = loadAverage();
  log(
    `Sector benchmark: ${names.join(', ')}; warm-up ${durations.warmup} s, ${durations.rounds} rounds of ${durations.round} s or more; ` +
      `${os.cpus().length} CPUs, Node ${process.version}`,
  );
  if (loadBefore !== null && loadBefore > 0.5)
    log(`warning: load average ${loadBefore} before start — other CPU load distorts the results`);

  const extras = noExtras();
  const sectors: Sector[] = [];
  let rows: ScenarioRow[] = [];
  let peakRss: number | null = null;
  let sqlStatements: number | null = null;
  if (sectorRuns) {
    const now = Date.now();
    const dataset = await buildDataset({ now });
    log(`dataset: ${dataset.imported}`);
    const slots = slotSequence({ now, callsigns: dataset.callsigns, userIds: dataset.userIds });

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

    const label = options.scenarios.length > 0 ? options.scenarios.join('+').replace(/\W+/g, '-') : 'all';
    let fanout: Fanout | null = null;
    try {
      let configured: RunContext['configured'] = null;
      if (selected.some((s) => s.body === 'slots')) {
        // Its own copy of the database, so both Sectors start from the same data.
        const databaseFile = path.join(dataset.dir, 'configured.db');
        copyDatabase(dataset.databaseFile, databaseFile);
        fanout = await startFanout(`sqlite:${databaseFile}`, options.networkDelay);
        const plus = await startSector({
          databaseUrl: `sqlite:${databaseFile}`,
          cpuProf: options.cpuProf,
          label: `${label}-configured`,
          env: fanout.env,
        });
        sectors.push(plus);
        plus.pause();
        configured = { sector: plus, fanout, databaseFile };
      }
      const sector = await startSector({ databaseUrl: dataset.databaseUrl, cpuProf: options.cpuProf, label });
      sectors.push(sector);
      rows = await runScenarios(selected, {
        sector,
        configured,
        dataset,
        slots,
        durations,
        extras,
        acknowledged: { sector: 0, configured: 0 },
      });
      if (options.scenarios.length === 0 || options.scenarios.includes(WEBHOOKS)) {
        try {
          await runWebhooks({ dataset, slots, durations, extras });
        } catch (err) {
          extras.failures.push(`webhooks: ${err instanceof Error ? err.message : String(err)}`);
        }
      }
      for (const s of sectors) {
        const peak = peakRssMb(s.pid);
        if (peak !== null) peakRss = Math.max(peakRss ?? 0, peak);
      }
    } finally {
      for (const s of sectors) {
        const trouble = await stopSector(s);
        if (trouble) log(trouble);
      }
      await fanout?.close();
    }
  }
  // After the servers of the other scenarios have stopped: nothing else competes for the CPU.
  if (wants(FEED)) {
    try {
      extras.feed = await measureFeed({ seconds: durations.rounds === 1 ? 3 : 10, polls: 10, log });
    } catch (err) {
      extras.failures.push(`feed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  if (wants(ROSTER)) {
    try {
      extras.roster = await measureRoster({ members: ROSTER_MEMBERS, log });
    } catch (err) {
      extras.failures.push(`roster: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  const results = resultsJson(rows, extras, peakRss, sqlStatements);
  log('');
  log(formatTable(results, rows));
  log(`load average: ${loadBefore} before, ${loadAverage()} after (the sides of a scenario never ran at the same time)`);

  const profiled = sectors.flatMap((s) => (s.profileFile === null ? [] : [s.profileFile]));
  if (profiled.length > 0) {
    for (const file of profiled) {
      if (fs.existsSync(file)) {
        log(`\nCPU profile: ${path.relative(ROOT, file)}`);
        log(formatSummary(summariseProfile(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile), { top: 25 }));
      } else {
        log(`\nno CPU profile was written (${path.relative(ROOT, file)})`);
      }
    }
    log('\n(profiling on: results.json not written)');
  } else {
    fs.writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
    log(`wrote ${path.relative(ROOT, RESULTS_FILE)}`);
  }

  const missed = missedTargets(results, rows, extras, sectorRuns);
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
