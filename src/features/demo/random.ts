// A small seeded PRNG (mulberry32): the same seed gives the same demo division on every machine.

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
}

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: <T>(items: readonly T[]): T => {
      if (items.length === 0) throw new RangeError('pick from an empty list');
      return items[Math.floor(next() * items.length)]!;
    },
  };
}

/** A weighted choice, with the cumulative table built once for the hot loops. */
export function weighted<T>(entries: ReadonlyArray<readonly [T, number]>): (rng: Rng) => T {
  const values = entries.map(([v]) => v);
  const cumulative: number[] = [];
  let total = 0;
  for (const [, w] of entries) cumulative.push((total += w));
  return (rng) => {
    const x = rng.next() * total;
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return values[lo]!;
  };
}
