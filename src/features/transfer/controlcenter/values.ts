// Control Center's values as the import format writes them, and the report of one kind of rows.
import { ImportError } from '../import/plan.js';
import type { Row } from './read.js';

export interface KindReport {
  read: number;
  imported: number;
  skipped: Array<{ row: string; reason: string }>;
  /** Rows imported after a change (overlaps marked deleted, missing frequencies, zero dates). */
  changed: Array<{ row: string; reason: string }>;
}

/**
 * MySQL's zero dates: `0000-00-00` (with or without a time), and a zero month or day (`2024-00-10`),
 * which MySQL stores under a lax SQL mode where a date was not known. None of them is a date.
 */
export function isZeroDate(v: unknown): boolean {
  return typeof v === 'string' && /^(0000-\d\d-\d\d|\d{4}-00-\d\d|\d{4}-\d\d-00)/.test(v);
}

export const kind = (read: number): KindReport => ({ read, imported: 0, skipped: [], changed: [] });
/** A DATETIME as an ISO instant; a zero date is no date. */
export const instant = (v: string | number | null | undefined): string | null =>
  v == null || isZeroDate(v) ? null : `${String(v).replace(' ', 'T')}Z`;
export const str = (v: string | number | null | undefined): string | null =>
  v == null || String(v).trim() === '' ? null : String(v).trim();
export const num = (v: unknown): number => Number(v);
export const flag = (v: unknown): boolean => Number(v) === 1;

/** How a message names a Control Center row: its table and id, `users[id=10000001]`. */
export const rowLabel = (table: string, id: unknown): string => `${table}[id=${String(id)}]`;

/**
 * A row's zero dates. In a column the row needs (`required`) it is the reason to skip the row; in
 * one that may be empty (`nullable`) it is imported as no date and reported as changed.
 */
export function zeroDates(
  r: KindReport,
  row: string,
  source: Row,
  required: readonly string[],
  nullable: readonly string[],
): string | null {
  const missing = required.filter((c) => isZeroDate(source[c]));
  if (missing.length > 0) return missing.map((c) => `${c} is a zero date (${String(source[c])})`).join('; ');
  const cleared = nullable.filter((c) => isZeroDate(source[c]));
  if (cleared.length > 0)
    r.changed.push({ row, reason: cleared.map((c) => `${c} is a zero date (${String(source[c])}): imported as no date`).join('; ') });
  return null;
}

/**
 * Checks one mapped record as the import format will (`parse`, naming the Control Center row by
 * `label`); a record that does not fit is skipped with the reason, like the other unclean rows.
 */
export function fits(r: KindReport, row: string, label: string, check: () => unknown): boolean {
  try {
    check();
    return true;
  } catch (err) {
    if (!(err instanceof ImportError)) throw err;
    const reason = err.message.startsWith(label) ? err.message.slice(label.length).replace(/^[.:]\s*/, '') : err.message;
    r.skipped.push({ row, reason });
    return false;
  }
}
