// Values from an import file, as error messages show them: on one line, short, and without
// characters a terminal would act on, however large or strange the file.
import { printable } from '../../../core/domain/printable.js';

/** Longest part of a string value a message quotes. */
const MAX_QUOTED = 100;
/** Longest rendering of an array or object. */
const MAX_PREVIEW = 120;

/** Writes unprintable characters as \uXXXX escapes (the CLI's one rule for printing outside text). */
export const escapeUnprintable = printable;

/** A string in double quotes, escaped; a long one cut to its start, with its length. */
export function quote(text: string): string {
  if (text.length <= MAX_QUOTED) return escapeUnprintable(JSON.stringify(text));
  // Not half of a surrogate pair.
  const cut = text.slice(0, /[\ud800-\udbff]/.test(text[MAX_QUOTED - 1]!) ? MAX_QUOTED - 1 : MAX_QUOTED);
  return `${escapeUnprintable(JSON.stringify(cut).slice(0, -1))}…" (${text.length} characters)`;
}

/** A key as a path shows it: bare when it is a short plain word, else quoted. */
export function pathKey(key: string): string {
  return /^[\w$-]{1,100}$/.test(key) ? key : quote(key);
}

/**
 * Any JSON value, shortly: strings quoted, arrays and objects to three items and three levels
 * (so a value nested a million levels deep costs nothing).
 */
export function preview(value: unknown): string {
  if (typeof value !== 'object' || value === null) return compact(value, 0);
  const text = compact(value, 0);
  return text.length <= MAX_PREVIEW ? text : `${text.slice(0, MAX_PREVIEW)}…`;
}

function compact(value: unknown, depth: number): string {
  if (typeof value === 'string') return quote(value);
  if (value === undefined) return 'nothing';
  // Parsed JSON: what is left here is a number, a boolean or null.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  if (typeof value !== 'object' || value === null) return String(value);
  const isArray = Array.isArray(value);
  if (depth >= 3) return isArray ? '[…]' : '{…}';
  const items: string[] = [];
  if (isArray) {
    for (const item of value.slice(0, 3)) items.push(compact(item, depth + 1));
    if (value.length > 3) items.push('…');
    return `[${items.join(',')}]`;
  }
  for (const key in value) {
    if (items.length === 3) {
      items.push('…');
      break;
    }
    items.push(`${quote(key)}:${compact((value as Record<string, unknown>)[key], depth + 1)}`);
  }
  return `{${items.join(',')}}`;
}
