// The server's heap growth setting (src/heap-growth.ts): set unless node was started with one.
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowthFlag } from '../../src/heap-growth.js';

describe('heap growth', () => {
  it('is set when nothing chooses it', () => {
    expect(heapGrowthFlag([])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--enable-source-maps', '--max-old-space-size=512'])).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  });

  it('is left to the operator who starts node with it', () => {
    expect(heapGrowthFlag(['--max-old-space-size=512', '--heap-growing-percent=100'])).toBeNull();
    expect(heapGrowthFlag(['--heap_growing_percent=20'])).toBeNull();
  });
});
