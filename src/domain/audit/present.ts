// How the audit command shows entries. Pure.
import { isoMicros } from '../time.js';
import type { Fields } from './entries.js';

/** An entry as read back. */
export interface StoredAuditEntry {
  at: number;
  actor: string;
  actor_name: string | null;
  action: string;
  target: string;
  before: Fields | null;
  after: Fields | null;
}

/** One JSON line: the fields in a fixed order, `at` as the API shows timestamps. */
export function auditJsonLine(e: StoredAuditEntry): string {
  return JSON.stringify({
    at: isoMicros(e.at),
    actor: e.actor,
    actor_name: e.actor_name,
    action: e.action,
    target: e.target,
    before: e.before,
    after: e.after,
  });
}

/** "field: before -> after" for each field an entry touches. */
export function describeChange(e: StoredAuditEntry): string {
  const fields = [...new Set([...Object.keys(e.before ?? {}), ...Object.keys(e.after ?? {})])];
  const show = (v: unknown) => (v === undefined ? '-' : JSON.stringify(v));
  return fields
    .map((f) => (e.before && e.after ? `${f}: ${show(e.before[f])} -> ${show(e.after[f])}` : `${f}=${show((e.after ?? e.before)![f])}`))
    .join(', ');
}

/** Aligned columns: time, actor, action, target, changes; a header first. */
export function auditTable(entries: StoredAuditEntry[]): string[] {
  const rows = [
    ['TIME', 'ACTOR', 'ACTION', 'TARGET', 'CHANGES'],
    ...entries.map((e) => [
      isoMicros(e.at).slice(0, 19).replace('T', ' '),
      e.actor_name === null ? e.actor : `${e.actor} (${e.actor_name})`,
      e.action,
      e.target,
      describeChange(e),
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}
