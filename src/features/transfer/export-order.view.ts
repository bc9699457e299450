// Ordering helpers of the export: the same order on every machine and database, so the same data gives the same bytes.

/** Code-unit order: the same on every machine and database (no locale, no collation). */
export const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Compares by each key in turn (numbers as numbers, anything else by code units). */
export function by<T>(...keys: Array<(x: T) => string | number>) {
  return (a: T, b: T): number => {
    for (const key of keys) {
      const [x, y] = [key(a), key(b)];
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : byText(String(x), String(y));
      if (c !== 0) return c;
    }
    return 0;
  };
}

export function groupBy<T, K>(rows: T[], keyOf: (r: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const r of rows) {
    const k = keyOf(r);
    const list = out.get(k);
    if (list) list.push(r);
    else out.set(k, [r]);
  }
  return out;
}
