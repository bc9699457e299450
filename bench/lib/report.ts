// The one table, bench/results.json (a fixed shape other tools read), and the target verdicts.
import type { BatchFigures } from './batch.js';
import type { ControlCenterFigures } from './controlcenter.js';
import type { FeedFigures, RosterFigures } from './network.js';
import { REPORTS_P99_MS, type ReportsFigures } from './reports.js';
import { TARGETS } from './scenarios.js';

/** One scenario's outcome in a run; numbers are null when it failed before measuring. */
export interface ScenarioRow {
  name: string;
  connections: number;
  sectorRps: number | null;
  referenceRps: number | null;
  /** Of the median round, or pooled over all rounds (scenarios with minResponses). */
  sectorP99: number | null;
  referenceP99: number | null;
  /** Responses behind pooled percentiles of each side, else null. */
  responses?: [number, number] | null;
  failure?: string;
}

/** Figures of the runs beside the request scenarios (null: not measured). */
export interface Extras {
  webhookSqlite: { p50: number | null; p95: number | null } | null;
  webhookPostgres: { p50: number | null; p95: number | null } | null;
  feed: FeedFigures | null;
  roster: RosterFigures | null;
  controlcenter: ControlCenterFigures | null;
  batch: BatchFigures | null;
  reports: ReportsFigures | null;
  failures: string[];
}

export const noExtras = (): Extras => ({
  webhookSqlite: null,
  webhookPostgres: null,
  feed: null,
  roster: null,
  controlcenter: null,
  batch: null,
  reports: null,
  failures: [],
});

/** bench/results.json. */
export interface Results {
  scenarios: Array<{
    name: string;
    sector_rps: number | null;
    reference_rps: number | null;
    sector_p99_ms: number | null;
    reference_p99_ms: number | null;
  }>;
  webhook_p95_ms_sqlite: number | null;
  webhook_p95_ms_postgres: number | null;
  feed_poll_cpu_median_ms: number | null;
  roster_sync_s: number | null;
  roster_peak_rss_mb: number | null;
  controlcenter_s: number | null;
  controlcenter_peak_rss_mb: number | null;
  /** Bookings/s of single creates, and of 100-booking batches, on one server in one run. */
  batch_single_bookings_per_s: number | null;
  batch_bookings_per_s: number | null;
  batch_speedup: number | null;
  /** Median and p99 of each staff report page (contract §25), per database. */
  reports: ReportsFigures | null;
}

const round = (n: number | null | undefined, digits: number): number | null =>
  n === null || n === undefined || !Number.isFinite(n) ? null : Number(n.toFixed(digits));

export function resultsJson(rows: readonly ScenarioRow[], extras: Extras): Results {
  return {
    scenarios: rows.map((r) => ({
      name: r.name,
      sector_rps: round(r.sectorRps, 1),
      reference_rps: round(r.referenceRps, 1),
      sector_p99_ms: round(r.sectorP99, 2),
      reference_p99_ms: round(r.referenceP99, 2),
    })),
    webhook_p95_ms_sqlite: round(extras.webhookSqlite?.p95, 0),
    webhook_p95_ms_postgres: round(extras.webhookPostgres?.p95, 0),
    feed_poll_cpu_median_ms: round(extras.feed?.pollCpuMedianMs, 0),
    roster_sync_s: round(extras.roster?.seconds, 1),
    roster_peak_rss_mb: round(extras.roster?.peakRssMb, 0),
    controlcenter_s: round(extras.controlcenter?.seconds, 1),
    controlcenter_peak_rss_mb: round(extras.controlcenter?.peakRssMb, 0),
    batch_single_bookings_per_s: round(extras.batch?.singleBookingsPerS, 1),
    batch_bookings_per_s: round(extras.batch?.batchBookingsPerS, 1),
    batch_speedup: round(extras.batch?.speedup, 1),
    reports: extras.reports,
  };
}

/**
 * A run of some scenarios (--scenario) over the results of an earlier run: what it measured
 * replaces the earlier figures, the rest stay.
 */
export function mergedResults(earlier: Partial<Results> | null, now: Results): Results {
  if (earlier === null) return now;
  const measured = new Set(now.scenarios.map((s) => s.name));
  const merged = { ...now, scenarios: [...(earlier.scenarios ?? []).filter((s) => !measured.has(s.name)), ...now.scenarios] };
  for (const key of Object.keys(now) as Array<keyof Results>) {
    if (key !== 'scenarios' && now[key] === null && earlier[key] !== undefined) Object.assign(merged, { [key]: earlier[key] });
  }
  return merged;
}

const show = (v: number | string | null | undefined): string => (v === null || v === undefined ? '—' : String(v));
const ratio = (a: number | null, b: number | null, digits = 2): number | null => (a !== null && b ? round(a / b, digits) : null);

export function formatTable(results: Results): string {
  const header = ['scenario', 'Sector req/s', 'reference req/s', 'rps ratio', 'Sector p99 ms', 'reference p99 ms', 'p99 ratio'];
  const lines = results.scenarios.map((s) => [
    s.name,
    show(s.sector_rps),
    show(s.reference_rps),
    show(ratio(s.sector_rps, s.reference_rps)),
    show(s.sector_p99_ms),
    show(s.reference_p99_ms),
    show(ratio(s.sector_p99_ms, s.reference_p99_ms)),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  const fmt = (cells: readonly string[]): string =>
    `| ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ')} |`;
  const table = lines.length === 0 ? [] : [fmt(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...lines.map(fmt), ''];
  return [
    ...table,
    `webhook delivery p95 at 50 creates/s: SQLite ${show(results.webhook_p95_ms_sqlite)} ms, PostgreSQL ${show(results.webhook_p95_ms_postgres)} ms`,
    `feed poll CPU median ${show(results.feed_poll_cpu_median_ms)} ms`,
    `roster sync: ${show(results.roster_sync_s)} s, peak RSS ${show(results.roster_peak_rss_mb)} MB`,
    `import:controlcenter: ${show(results.controlcenter_s)} s, peak RSS ${show(results.controlcenter_peak_rss_mb)} MB`,
    `batch: ${show(results.batch_bookings_per_s)} bookings/s in batches of 100, ${show(results.batch_single_bookings_per_s)} by single creates (${show(results.batch_speedup)}×)`,
    ...(['sqlite', 'postgres'] as const).map(
      (db) =>
        `reports (${db}): ${results.reports?.[db]?.map((p) => `${p.page} ${p.median_ms}/${p.p99_ms} ms`).join(', ') ?? '—'} (median/p99)`,
    ),
  ].join('\n');
}

/** Every missed target, one line each (empty: all met). */
export function missedTargets(results: Results, rows: readonly ScenarioRow[], extras: Extras): string[] {
  const missed = [...rows.flatMap((r) => (r.failure ? [`${r.name}: ${r.failure}`] : [])), ...extras.failures];
  for (const [i, s] of results.scenarios.entries()) {
    const rps = ratio(s.sector_rps, s.reference_rps, 3);
    if (rps !== null && rps < TARGETS.rpsOverReference)
      missed.push(`${s.name}: ${rps} of the reference's req/s < ${TARGETS.rpsOverReference}`);
    const p99 = ratio(s.sector_p99_ms, s.reference_p99_ms, 3);
    // Latencies of a median round have 1 ms resolution: both under a millisecond is no miss.
    if (p99 !== null && s.sector_p99_ms! > 1 && p99 > TARGETS.p99OverReference) {
      missed.push(`${s.name}: p99 ${s.sector_p99_ms} ms > ${TARGETS.p99OverReference} × the reference's ${s.reference_p99_ms} ms`);
    }
    const responses = rows[i]?.responses;
    if (responses && Math.min(...responses) < TARGETS.usersMinResponses) {
      missed.push(`${s.name}: p99 from ${Math.min(...responses)} responses (< ${TARGETS.usersMinResponses})`);
    }
  }
  for (const [db, p95] of [
    ['SQLite', results.webhook_p95_ms_sqlite],
    ['PostgreSQL', results.webhook_p95_ms_postgres],
  ] as const) {
    if (p95 !== null && p95 > TARGETS.webhookP95Ms) missed.push(`webhooks (${db}): p95 ${p95} ms > ${TARGETS.webhookP95Ms} ms`);
  }
  const cpu = results.feed_poll_cpu_median_ms;
  if (cpu !== null && cpu > TARGETS.feedPollCpuMs) missed.push(`feed: poll CPU median ${cpu} ms > ${TARGETS.feedPollCpuMs} ms`);
  const sync = results.roster_sync_s;
  if (sync !== null && sync > TARGETS.rosterSyncSeconds) missed.push(`roster: synced in ${sync} s > ${TARGETS.rosterSyncSeconds} s`);
  const rss = results.roster_peak_rss_mb;
  if (rss !== null && rss > TARGETS.rosterPeakRssMb) missed.push(`roster: peak RSS ${rss} MB > ${TARGETS.rosterPeakRssMb} MB`);
  const cc = extras.controlcenter;
  if (cc && cc.seconds > TARGETS.controlCenterSeconds)
    missed.push(`controlcenter: moved in ${cc.seconds.toFixed(1)} s > ${TARGETS.controlCenterSeconds} s`);
  if (cc && cc.peakRssMb > TARGETS.controlCenterPeakRssMb)
    missed.push(`controlcenter: peak RSS ${cc.peakRssMb.toFixed(0)} MB > ${TARGETS.controlCenterPeakRssMb} MB`);
  const speedup = extras.batch?.speedup ?? null;
  if (speedup !== null && speedup < TARGETS.batchSpeedup) {
    missed.push(`batch: a booking in a batch of 100 is ${speedup.toFixed(1)}× faster than by a single create < ${TARGETS.batchSpeedup}×`);
  }
  for (const db of ['sqlite', 'postgres'] as const) {
    for (const p of extras.reports?.[db] ?? []) {
      if (p.p99_ms > REPORTS_P99_MS) missed.push(`reports (${db}): ${p.page} p99 ${p.p99_ms} ms > ${REPORTS_P99_MS} ms`);
    }
  }
  return missed;
}
