// The reports' arithmetic (contract §25), pure: the twelve UTC months a report covers, medians, pass
// rates, and CSV cells that a spreadsheet cannot run as a formula.
import { addMonths } from '../activity/domain.js';

export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

/** One calendar month (UTC): [start, end) in ms and its key "YYYY-MM". */
export interface Month {
  key: string;
  start: number;
  end: number;
}

/** The month holding `now` and the eleven before it, oldest first: a report's period is their union. */
export function lastTwelveMonths(now: number): Month[] {
  const d = new Date(now);
  const [y, m] = [d.getUTCFullYear(), d.getUTCMonth()];
  return Array.from({ length: 12 }, (_, i) => {
    const start = Date.UTC(y, m - 11 + i, 1);
    const end = Date.UTC(y, m - 10 + i, 1);
    return { key: new Date(start).toISOString().slice(0, 7), start, end };
  });
}

/** "2026-03" as "Mar 2026" (axis labels and table rows). */
export function monthLabel(key: string): string {
  const names = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${names[Number(key.slice(5, 7)) - 1]!} ${key.slice(0, 4)}`;
}

/** The index of the month holding `at` (null: outside the period). */
export function monthOf(months: readonly Month[], at: number | null): number | null {
  if (at === null) return null;
  const i = months.findIndex((m) => at >= m.start && at < m.end);
  return i < 0 ? null : i;
}

/** The median (the mean of the two middle values for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** PASSED / (PASSED + FAILED) as a percentage with one decimal; null when neither happened. */
export function passRate(passed: number, failed: number): number | null {
  return passed + failed === 0 ? null : Math.round((passed / (passed + failed)) * 1000) / 10;
}

/** Hours with one decimal from milliseconds (12.5 h). */
export const hoursOf = (ms: number): number => Math.round((ms / HOUR_MS) * 10) / 10;

/** Days with one decimal from milliseconds. */
export const daysOf = (ms: number): number => Math.round((ms / DAY_MS) * 10) / 10;

/** Whole days from one YYYY-MM-DD date to another. */
export const daysBetween = (from: string, to: string): number =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

export type Cell = string | number | null;

/**
 * One CSV cell (RFC 4180 quoting). A text starting with =, +, - or @ is prefixed with ' so a
 * spreadsheet shows it rather than running it as a formula; numbers are written as they are.
 */
export function csvCell(value: Cell): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A table as the reports show and export it: a caption, column headings and rows. */
export interface Table {
  caption: string;
  columns: string[];
  rows: Cell[][];
}

/** Every table of a report in one CSV text: each table's caption on its own line, its header, rows, then a blank line. */
export function csvOf(tables: readonly Table[]): string {
  const line = (cells: readonly Cell[]) => cells.map(csvCell).join(',');
  return tables.map((t) => [line([t.caption]), line(t.columns), ...t.rows.map(line)].join('\r\n')).join('\r\n\r\n') + '\r\n';
}

/** The label of what a training is for, as the queue groups it: its ratings and facilities, sorted. */
export const trainingFor = (ratings: readonly string[]): string => [...ratings].sort().join(', ') || '(nothing named)';

/** Grants of a grace at or before this instant have run out (a grace lasts `graceMonths` from its grant, §16). */
export const graceCutoff = (now: number, graceMonths: number): number => addMonths(now, -graceMonths);
