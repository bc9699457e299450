// Readers of an import file's values: each checks one value's shape and fails with ImportError
// naming the value's JSON path. Pure: no database access.
import { isRatingCode, RATINGS } from '../../members/domain/ratings.js';
import { parseIsoInstant } from '../../../core/domain/time.js';
import { ImportError } from './plan.js';
import { pathKey, preview } from './quote.js';

export type Obj = Record<string, unknown>;
export const fail = (path: string, msg: string): never => {
  throw new ImportError(`${path}: ${msg}`);
};
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Refuses a second record with the same natural key: within one file the database would either
 * refuse it without a path or let the later record silently overwrite the earlier one.
 */
export function refuseDuplicates<T extends { path: string }>(records: T[], keyOf: (r: T) => unknown[] | null, fields: string): void {
  const firstPath = new Map<string, string>();
  for (const r of records) {
    const parts = keyOf(r);
    if (parts === null) continue;
    const key = JSON.stringify(parts);
    const earlier = firstPath.get(key);
    if (earlier !== undefined) fail(r.path, `duplicates ${earlier} (same ${fields})`);
    firstPath.set(key, r.path);
  }
}
/** Drops records whose natural key is already listed; for records that are nothing but their key. */
export function withoutRepeats<T>(records: T[], keyOf: (r: T) => unknown[]): T[] {
  const seen = new Set<string>();
  return records.filter((r) => {
    const key = JSON.stringify(keyOf(r));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export function arr(root: Obj, key: string): unknown[] {
  const v = root[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) fail(key, 'must be an array');
  return v as unknown[];
}
export function obj(v: unknown, path: string): Obj {
  if (!isObj(v)) fail(path, 'must be an object');
  return v as Obj;
}
/** A record: an object with only the fields its section knows. */
export function record(v: unknown, path: string, fields: readonly string[]): Obj {
  const o = obj(v, path);
  for (const key of Object.keys(o))
    if (!fields.includes(key)) fail(`${path}.${pathKey(key)}`, `unknown field; expected one of ${fields.join(', ')}`);
  return o;
}
/** Whether the record gives the field at all (null included). */
export const gives = (o: Obj, key: string): boolean => Object.hasOwn(o, key);
/** Refuses an explicit null for a field that cannot be empty. */
export function notNull(o: Obj, key: string, path: string): void {
  if (o[key] === null) fail(`${path}.${key}`, 'must not be null');
}
/** Refuses NUL: PostgreSQL text cannot hold it, and would fail the whole import without a path. */
export function refuseNul(v: string, path: string): string {
  if (v.includes('\u0000')) fail(path, 'must not contain a NUL character (\\u0000)');
  return v;
}
/** A trimmed, non-empty string of at most max characters. */
export function text(v: unknown, path: string, max: number, what = 'a non-empty string'): string {
  if (typeof v !== 'string' || v.trim() === '') return fail(path, `must be ${what}`);
  refuseNul(v, path);
  if (v.length > max) fail(path, `must be at most ${max} characters`);
  return v.trim();
}
/** A string that must be there (a key field, or a field given that cannot be empty). */
export function reqStr(o: Obj, key: string, path: string, max = 200): string {
  const v = o[key];
  if (v === undefined || v === null) return fail(`${path}.${key}`, 'is required');
  return text(v, `${path}.${key}`, max);
}
/** A field that may be null. */
export function nullableStr(o: Obj, key: string, path: string, max = 200): string | null {
  const v = o[key];
  return v === undefined || v === null ? null : text(v, `${path}.${key}`, max);
}
export function int(o: Obj, key: string, path: string, min: number, max: number): number {
  const v = o[key];
  if (v === undefined || v === null) return fail(`${path}.${key}`, 'is required');
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    return fail(`${path}.${key}`, `must be an integer from ${min} to ${max}`);
  }
  return v;
}
export function rating(o: Obj, key: string, path: string): number {
  const v = o[key];
  if (typeof v !== 'string' || !isRatingCode(v)) return fail(`${path}.${key}`, `unknown rating ${preview(v)}`);
  return RATINGS[v];
}
export function instant(o: Obj, key: string, path: string, nullable: boolean): number | null {
  const v = o[key];
  if (v === null || v === undefined) {
    if (nullable) return null;
    return fail(`${path}.${key}`, 'is required');
  }
  const ms = typeof v === 'string' ? parseIsoInstant(v) : null;
  if (ms === null) return fail(`${path}.${key}`, `must be an ISO 8601 time such as 2025-01-01T00:00:00Z (got ${preview(v)})`);
  return ms;
}
/** A list of strings; null is the empty list. */
export function strList(o: Obj, key: string, path: string): string[] {
  const v = o[key];
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return fail(`${path}.${key}`, 'must be an array of strings');
  return v.map((s, i) => text(s, `${path}.${key}[${i}]`, 200));
}
/** true or false; null is false. */
export function bool(o: Obj, key: string, path: string): boolean {
  const v = o[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') fail(`${path}.${key}`, 'must be true or false');
  return v as boolean;
}
