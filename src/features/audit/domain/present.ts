// How the audit command shows entries. Pure.
import { printable } from '../../../core/domain/printable.js';
import { isoMicros } from '../../../core/domain/time.js';
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

/** Longest actor or target shown in the table; --json has them whole. */
const MAX_NAME = 40;
/** On a narrow terminal, actors and targets are cut down to this, no further. */
const MIN_NAME = 8;
/** The changes column keeps at least this much, however narrow the terminal. */
const MIN_CHANGES = 20;
const GAP = 2;

/** Cut to `width` characters, the last of them an ellipsis. */
function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, Math.max(0, width - 1))}…`;
}

/** Aligned, printable columns (time, actor, action, target, changes), each line cut to `width`; `--json` has everything. */
export function auditTable(entries: StoredAuditEntry[], width = 120): string[] {
  const cells = [
    ['TIME', 'ACTOR', 'ACTION', 'TARGET', 'CHANGES'],
    ...entries.map((e) => [
      isoMicros(e.at).slice(0, 19).replace('T', ' '),
      printable(e.actor_name === null ? e.actor : `${e.actor} (${e.actor_name})`),
      printable(e.action),
      printable(e.target),
      printable(describeChange(e)),
    ]),
  ];
  const natural = (i: number) => Math.max(...cells.map((r) => r[i]!.length));
  const [timeW, actionW] = [natural(0), natural(2)];
  // What the actor and the target may share: the line less the fixed columns and the changes' minimum.
  const budget = width - timeW - actionW - 4 * GAP - MIN_CHANGES;
  const actorW = Math.min(natural(1), MAX_NAME, Math.max(MIN_NAME, budget - Math.min(natural(3), MAX_NAME, Math.floor(budget / 2))));
  const targetW = Math.min(natural(3), MAX_NAME, Math.max(MIN_NAME, budget - actorW));
  const widths = [timeW, actorW, actionW, targetW];
  const room = Math.max(MIN_CHANGES, width - widths.reduce((sum, w) => sum + w + GAP, 0));
  return cells.map((r) =>
    r
      .map((c, i) => (i === r.length - 1 ? cut(c, room) : cut(c, widths[i]!).padEnd(widths[i]!)))
      .join('  ')
      .trimEnd(),
  );
}
