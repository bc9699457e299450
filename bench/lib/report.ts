// The one table, bench/results.json (a fixed shape other tools read), and the target verdicts.
import { TARGETS } from './scenarios.js';

/** One scenario's outcome in a run; numbers are null when it failed before measuring. */
export interface ScenarioRow {
  name: string;
  connections: number;
  sectorRps: number | null;
  baselineRps: number | null;
  p50: number | null;
  p99: number | null;
  /** Sector's peak RSS (MB) after the scenario. */
  rssAfter?: number | null;
  failure?: string;
}

/** bench/results.json. */
export interface Results {
  scenarios: Array<{
    name: string;
    sector_rps: number | null;
    baseline_rps: number | null;
    ratio: number | null;
    p50_ms: number | null;
    p99_ms: number | null;
  }>;
  peak_rss_mb: number | null;
  sql_statements_per_users_request: number | null;
}

const round = (n: number | null | undefined, digits: number): number | null =>
  n === null || n === undefined || !Number.isFinite(n) ? null : Number(n.toFixed(digits));

export function resultsJson(rows: readonly ScenarioRow[], peakRss: number | null, sqlStatements: number | null): Results {
  return {
    scenarios: rows.map((r) => ({
      name: r.name,
      sector_rps: round(r.sectorRps, 1),
      baseline_rps: round(r.baselineRps, 1),
      ratio: round(r.sectorRps !== null && r.baselineRps ? r.sectorRps / r.baselineRps : null, 3),
      p50_ms: round(r.p50, 2),
      p99_ms: round(r.p99, 2),
    })),
    peak_rss_mb: round(peakRss, 1),
    sql_statements_per_users_request: sqlStatements,
  };
}

export function formatTable(results: Results, rows: readonly ScenarioRow[]): string {
  const header = ['scenario', 'conns', 'Sector req/s', 'baseline req/s', 'ratio', 'p50 ms', 'p99 ms', 'RSS peak MB'];
  const show = (v: number | string | null | undefined): string => (v === null || v === undefined ? '—' : String(v));
  const lines = results.scenarios.map((s, i) => [
    s.name,
    String(rows[i]?.connections),
    show(s.sector_rps),
    show(s.baseline_rps),
    show(s.ratio),
    show(s.p50_ms),
    show(s.p99_ms),
    show(round(rows[i]?.rssAfter, 1)),
  ]);
  const widths = header.map((h, c) => Math.max(h.length, ...lines.map((l) => l[c]!.length)));
  const fmt = (cells: readonly string[]): string =>
    `| ${cells.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join(' | ')} |`;
  return [
    fmt(header),
    `|${widths.map((w, c) => (c === 0 ? `:${'-'.repeat(w + 1)}` : `${'-'.repeat(w + 1)}:`)).join('|')}|`,
    ...lines.map(fmt),
    '',
    `peak RSS of the Sector process (VmHWM): ${show(results.peak_rss_mb)} MB`,
    `SQL statements per GET /api/users with every relation (cold): ${show(results.sql_statements_per_users_request)}`,
  ].join('\n');
}

/** Every missed target, as one line each (empty: all met). */
export function missedTargets(results: Results, rows: readonly ScenarioRow[]): string[] {
  const missed: string[] = [];
  for (const row of rows) {
    if (row.failure) missed.push(`${row.name}: ${row.failure}`);
  }
  const byName = new Map(results.scenarios.map((s) => [s.name, s]));
  const ratio = (name: string, min: number): void => {
    const s = byName.get(name);
    if (s && s.ratio !== null && s.ratio < min) missed.push(`${name}: ratio ${s.ratio} < ${min}`);
  };
  ratio('positions', TARGETS.positionsRatio);
  ratio('bookings', TARGETS.bookingsRatio);
  ratio('bookings (key)', TARGETS.bookingsRatio);
  ratio('schedule', TARGETS.scheduleRatio);
  const users = byName.get('users');
  if (users && users.p50_ms !== null && users.p50_ms > TARGETS.usersP50Ms)
    missed.push(`users: p50 ${users.p50_ms} ms > ${TARGETS.usersP50Ms} ms`);
  if (users && users.p99_ms !== null && users.p99_ms > TARGETS.usersP99Ms)
    missed.push(`users: p99 ${users.p99_ms} ms > ${TARGETS.usersP99Ms} ms`);
  const create = byName.get('create');
  if (create && create.sector_rps !== null && create.sector_rps < TARGETS.createsPerSecond) {
    missed.push(`create: ${create.sector_rps} creates/s < ${TARGETS.createsPerSecond}`);
  }
  if (results.peak_rss_mb === null) missed.push('peak RSS: not measured');
  else if (results.peak_rss_mb > TARGETS.peakRssMb) missed.push(`peak RSS: ${results.peak_rss_mb} MB > ${TARGETS.peakRssMb} MB`);
  return missed;
}
