// Grouping and ordering shared by the presenters: plain byte order throughout, so responses do not
// depend on the locale or on the database's collation.

/** Plain byte order, independent of locale and database collation. */
export const byteOrder = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The values of rows grouped by key, each group in byte order. */
export function groupBy<T, K>(rows: readonly T[], key: (row: T) => K, value: (row: T) => string): Map<K, string[]> {
  const out = new Map<K, string[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(value(row));
    else out.set(k, [value(row)]);
  }
  for (const list of out.values()) list.sort(byteOrder);
  return out;
}

/** The distinct values per key. */
export function groupSets<K>(rows: Iterable<[K, string]>): Map<K, Set<string>> {
  const out = new Map<K, Set<string>>();
  for (const [k, v] of rows) {
    const set = out.get(k);
    if (set) set.add(v);
    else out.set(k, new Set([v]));
  }
  return out;
}

/** Sorted, de-duplicated strings of a set. */
export const sortedList = (values: Iterable<string>): string[] => [...new Set(values)].sort(byteOrder);
