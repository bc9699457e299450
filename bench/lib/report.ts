// The one table, bench/results.json (a fixed shape other tools read), and the target verdicts.
import type { FeedFigures, RosterFigures } from './network.js';
import { TARGETS } from './scenarios.js';

/** One scenario's outcome in a run; numbers are null when it failed before measuring. */
export interface ScenarioRow {
  name: string;
  connections: number;
  sectorRps: number | null;
  fastifyRps: number | null;
  baselineRps: number | null;
  /** Sector's latencies: of its median round, or pooled over its rounds (users). */
  p50: number | null;
  p99: number | null;
  /** The baseline's p99, measured the same way in the same rounds. */
  baselineP99: number | null;
  /** 2xx answers behind the pooled percentiles of Sector and of the baseline (users), else null. */
  responses?: number | null;
  baselineResponses?: number | null;
  /** Sector's peak RSS (MB) after the scenario. */
  rssAfter?: number | null;
  failure?: string;
}

/** Runs beside the scenarios: users read while bookings are written, creates with everything configured. */
export interface Extras {
  usersWithWritesP50: number | null;
  usersReadOnlyP50: number | null;
  /** Bookings created per second during the users-with-writes rounds. */
  usersWithWritesCreateRate: number | null;
  createNoneConfiguredRps: number | null;
  createAllConfiguredRps: number | null;
  /** Webhook delivery latency at a steady rate of creates, per database (null: not measured). */
  webhookSqlite: { p50: number | null; p95: number | null } | null;
  webhookPostgres: { p50: number | null; p95: number | null } | null;
  /** The data feed and the roster (lib/network.ts; null: not measured). */
  feed: FeedFigures | null;
  roster: RosterFigures | null;
  failures: string[];
}

export const noExtras = (): Extras => ({
  usersWithWritesP50: null,
  usersReadOnlyP50: null,
  usersWithWritesCreateRate: null,
  createNoneConfiguredRps: null,
  createAllConfiguredRps: null,
  webhookSqlite: null,
  webhookPostgres: null,
  feed: null,
  roster: null,
  failures: [],
});

/** bench/results.json. */
export interface Results {
  scenarios: Array<{
    name: string;
    sector_rps: number | null;
    fastify_rps: number | null;
    baseline_rps: number | null;
    /** sector_rps / baseline_rps. */
    ratio: number | null;
    /** fastify_rps / baseline_rps: what the framework alone keeps. */
    fastify_ratio: number | null;
    /** Microseconds per request at each side's rate (1e6 / rps). */
    sector_us: number | null;
    fastify_us: number | null;
    baseline_us: number | null;
    p50_ms: number | null;
    p99_ms: number | null;
    baseline_p99_ms: number | null;
    /** Answers behind pooled percentiles (users), else null. */
    responses: number | null;
    baseline_responses: number | null;
  }>;
  users_read_only_p50_ms: number | null;
  users_with_writes_p50_ms: number | null;
  users_with_writes_create_rps: number | null;
  create_none_configured_rps: number | null;
  create_all_configured_rps: number | null;
  webhook_p50_ms_sqlite: number | null;
  webhook_p95_ms_sqlite: number | null;
  webhook_p50_ms_postgres: number | null;
  webhook_p95_ms_postgres: number | null;
  peak_rss_mb: number | null;
  sql_statements_per_users_request: number | null;
  feed_poll_cpu_median_ms: number | null;
  feed_poll_cpu_worst_ms: number | null;
  positions_p99_ms_without_polls: number | null;
  positions_p99_ms_with_polls: number | null;
  /** positions_p99_ms_with_polls / positions_p99_ms_without_polls. */
  positions_p99_polls_ratio: number | null;
  roster_members: number | null;
  roster_sync_s: number | null;
  roster_peak_rss_mb: number | null;
  /** roster_peak_rss_mb over the peak RSS of a command loading the same modules and database. */
  roster_peak_rss_growth_mb: number | null;
}

const round = (n: number | null | undefined, digits: number): number | null =>
  n === null || n === undefined || !Number.isFinite(n) ? null : Number(n.toFixed(digits));
const ratioOf = (a: number | null, b: number | null): number | null => (a !== null && b ? a / b : null);
const micros = (rps: number | null): number | null => (rps ? 1e6 / rps : null);

export function resultsJson(rows: readonly ScenarioRow[], extras: Extras, peakRss: number | null, sqlStatements: number | null): Results {
  return {
    scenarios: rows.map((r) => ({
      name: r.name,
      sector_rps: round(r.sectorRps, 1),
      fastify_rps: round(r.fastifyRps, 1),
      baseline_rps: round(r.baselineRps, 1),
      ratio: round(ratioOf(r.sectorRps, r.baselineRps), 3),
      fastify_ratio: round(ratioOf(r.fastifyRps, r.baselineRps), 3),
      sector_us: round(micros(r.sectorRps), 1),
      fastify_us: round(micros(r.fastifyRps), 1),
      baseline_us: round(micros(r.baselineRps), 1),
      p50_ms: round(r.p50, 2),
      p99_ms: round(r.p99, 2),
      baseline_p99_ms: round(r.baselineP99, 2),
      responses: r.responses ?? null,
      baseline_responses: r.baselineResponses ?? null,
    })),
    users_read_only_p50_ms: round(extras.usersReadOnlyP50, 2),
    users_with_writes_p50_ms: round(extras.usersWithWritesP50, 2),
    users_with_writes_create_rps: round(extras.usersWithWritesCreateRate, 1),
    create_none_configured_rps: round(extras.createNoneConfiguredRps, 1),
    create_all_configured_rps: round(extras.createAllConfiguredRps, 1),
    webhook_p50_ms_sqlite: round(extras.webhookSqlite?.p50, 0),
    webhook_p95_ms_sqlite: round(extras.webhookSqlite?.p95, 0),
    webhook_p50_ms_postgres: round(extras.webhookPostgres?.p50, 0),
    webhook_p95_ms_postgres: round(extras.webhookPostgres?.p95, 0),
    peak_rss_mb: round(peakRss, 1),
    sql_statements_per_users_request: sqlStatements,
    feed_poll_cpu_median_ms: round(extras.feed?.pollCpuMedianMs, 0),
    feed_poll_cpu_worst_ms: round(extras.feed?.pollCpuWorstMs, 0),
    positions_p99_ms_without_polls: round(extras.feed?.p99QuietMs, 2),
    positions_p99_ms_with_polls: round(extras.feed?.p99PolledMs, 2),
    positions_p99_polls_ratio: round(extras.feed ? extras.feed.p99PolledMs / extras.feed.p99QuietMs : null, 2),
    roster_members: extras.roster?.members ?? null,
    roster_sync_s: round(extras.roster?.seconds, 1),
    roster_peak_rss_mb: round(extras.roster?.peakRssMb, 0),
    roster_peak_rss_growth_mb: round(extras.roster ? extras.roster.peakRssMb - extras.roster.baselinePeakRssMb : null, 0),
  };
}

export function formatTable(results: Results, rows: readonly ScenarioRow[]): string {
  const header = [
    'scenario',
    'conns',
    'Sector req/s',
    'Fastify req/s',
    'baseline req/s',
    'ratio',
    'µs S/F/B',
    'p50 ms',
    'p99 ms',
    'base p99',
    'RSS MB',
  ];
  const show = (v: number | string | null | undefined): string => (v === null || v === undefined ? '—' : String(v));
  const lines = results.scenarios.map((s, i) => [
    s.name,
    String(rows[i]?.connections),
    show(s.sector_rps),
    show(s.fastify_rps),
    show(s.baseline_rps),
    show(s.ratio),
    `${show(s.sector_us)}/${show(s.fastify_us)}/${show(s.baseline_us)}`,
    show(s.p50_ms),
    show(s.p99_ms),
    show(s.baseline_p99_ms),
    show(round(rows[i]?.rssAfter, 1)),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  const fmt = (cells: readonly string[]): string =>
    `| ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ')} |`;
  // Only the scenarios without requests ran (webhooks, feed, roster): no table.
  const table =
    lines.length === 0
      ? []
      : [
          fmt(header),
          `|${widths.map((w, c) => (c === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
          ...lines.map(fmt),
          '',
        ];
  return [
    ...table,
    `users p50 read-only ${show(results.users_read_only_p50_ms)} ms, with bookings created at ${show(results.users_with_writes_create_rps)}/s ${show(results.users_with_writes_p50_ms)} ms`,
    `create: ${show(results.create_none_configured_rps)}/s with nothing configured, ${show(results.create_all_configured_rps)}/s with webhooks, audit and network sync`,
    `webhook delivery at 50 creates/s, 3 subscriptions: SQLite p50 ${show(results.webhook_p50_ms_sqlite)} / p95 ${show(results.webhook_p95_ms_sqlite)} ms, ` +
      `PostgreSQL p50 ${show(results.webhook_p50_ms_postgres)} / p95 ${show(results.webhook_p95_ms_postgres)} ms`,
    `peak RSS of the Sector process (VmHWM): ${show(results.peak_rss_mb)} MB`,
    `SQL statements per GET /api/users with every relation (cold): ${show(results.sql_statements_per_users_request)}`,
    `feed poll CPU: median ${show(results.feed_poll_cpu_median_ms)} ms, worst ${show(results.feed_poll_cpu_worst_ms)} ms; ` +
      `GET /api/positions p99 ${show(results.positions_p99_ms_without_polls)} ms without polls, ${show(results.positions_p99_ms_with_polls)} ms with a poll every second (×${show(results.positions_p99_polls_ratio)})`,
    `roster of ${show(results.roster_members)} members: synced in ${show(results.roster_sync_s)} s, peak RSS ${show(results.roster_peak_rss_mb)} MB (+${show(results.roster_peak_rss_growth_mb)} MB)`,
  ].join('\n');
}

/** Every missed target, as one line each (empty: all met). `sectorRan`: a server scenario ran, so its peak RSS counts. */
export function missedTargets(results: Results, rows: readonly ScenarioRow[], extras: Extras, sectorRan = true): string[] {
  const missed: string[] = [];
  for (const row of rows) {
    if (row.failure) missed.push(`${row.name}: ${row.failure}`);
  }
  missed.push(...extras.failures);
  const byName = new Map(results.scenarios.map((s) => [s.name, s]));
  const overFastify = (name: string, min: number): void => {
    const s = byName.get(name);
    if (!s || s.sector_rps === null || !s.fastify_rps) return;
    const share = Number((s.sector_rps / s.fastify_rps).toFixed(3));
    if (share < min) missed.push(`${name}: ${share} of the plain Fastify route's rate < ${min}`);
  };
  overFastify('positions', TARGETS.positionsOverFastify);
  overFastify('bookings', TARGETS.publicGetOverFastify);
  overFastify('bookings (key)', TARGETS.publicGetOverFastify);
  overFastify('schedule', TARGETS.publicGetOverFastify);
  const users = byName.get('users');
  if (users) {
    if (users.p50_ms !== null && users.p50_ms > TARGETS.usersP50Ms) missed.push(`users: p50 ${users.p50_ms} ms > ${TARGETS.usersP50Ms} ms`);
    for (const [who, n] of [
      ['Sector', users.responses],
      ['baseline', users.baseline_responses],
    ] as const) {
      if (n === null || n < TARGETS.usersMinResponses)
        missed.push(`users: p99 from ${n ?? 0} answers of ${who} (< ${TARGETS.usersMinResponses})`);
    }
    if (users.p99_ms !== null && users.baseline_p99_ms !== null && users.p99_ms > TARGETS.usersP99OverBaseline * users.baseline_p99_ms) {
      missed.push(`users: p99 ${users.p99_ms} ms > ${TARGETS.usersP99OverBaseline} × the baseline's ${users.baseline_p99_ms} ms`);
    }
  }
  const withWrites = results.users_with_writes_p50_ms;
  const readOnly = results.users_read_only_p50_ms;
  if (users && (withWrites === null || readOnly === null)) missed.push('users with writes: not measured');
  else if (withWrites !== null && readOnly !== null && withWrites > TARGETS.usersWithWritesOverReadOnly * Math.max(readOnly, 1)) {
    missed.push(`users with writes: p50 ${withWrites} ms > ${TARGETS.usersWithWritesOverReadOnly} × read-only ${readOnly} ms`);
  }
  const create = byName.get('create');
  if (create && create.sector_rps !== null && create.sector_rps < TARGETS.createsPerSecond) {
    missed.push(`create: ${create.sector_rps} creates/s < ${TARGETS.createsPerSecond}`);
  }
  if (create) {
    const all = results.create_all_configured_rps;
    const none = results.create_none_configured_rps;
    if (all === null || none === null) missed.push('create with everything configured: not measured');
    else if (all < TARGETS.configuredCreateShare * none) {
      missed.push(`create with everything configured: ${all}/s < ${TARGETS.configuredCreateShare} × ${none}/s with nothing configured`);
    }
  }
  for (const [db, p95] of [
    ['SQLite', results.webhook_p95_ms_sqlite],
    ['PostgreSQL', results.webhook_p95_ms_postgres],
  ] as const) {
    if (p95 !== null && p95 > TARGETS.webhookP95Ms) missed.push(`webhooks (${db}): p95 ${p95} ms > ${TARGETS.webhookP95Ms} ms`);
  }
  const cpu = results.feed_poll_cpu_worst_ms;
  if (cpu !== null && cpu > TARGETS.feedPollCpuMs) missed.push(`feed: poll CPU ${cpu} ms > ${TARGETS.feedPollCpuMs} ms`);
  const polls = results.positions_p99_polls_ratio;
  if (polls !== null && polls > TARGETS.p99DuringPollsOverQuiet) {
    missed.push(
      `feed: GET /api/positions p99 ${results.positions_p99_ms_with_polls} ms during polls > ${TARGETS.p99DuringPollsOverQuiet} × ${results.positions_p99_ms_without_polls} ms without`,
    );
  }
  const sync = results.roster_sync_s;
  if (sync !== null && sync > TARGETS.rosterSyncSeconds) missed.push(`roster: synced in ${sync} s > ${TARGETS.rosterSyncSeconds} s`);
  const growth = results.roster_peak_rss_growth_mb;
  if (growth !== null && growth > TARGETS.rosterPeakRssGrowthMb) {
    missed.push(`roster: peak RSS growth ${growth} MB > ${TARGETS.rosterPeakRssGrowthMb} MB`);
  }
  if (!sectorRan) return missed;
  if (results.peak_rss_mb === null) missed.push('peak RSS: not measured');
  else if (results.peak_rss_mb > TARGETS.peakRssMb) missed.push(`peak RSS: ${results.peak_rss_mb} MB > ${TARGETS.peakRssMb} MB`);
  return missed;
}
