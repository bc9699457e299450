import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoMicros } from '../../src/domain/time.js';
import { timestampFormatter } from '../../src/presenters/timestamps.js';

describe('timestampFormatter', () => {
  it('formats exactly like isoMicros', () => {
    const format = timestampFormatter();
    expect(format(Date.UTC(2024, 1, 4, 15, 18, 44))).toBe('2024-02-04T15:18:44.000000Z');
    expect(format(Date.UTC(2025, 4, 1, 8, 30, 0, 250))).toBe('2025-05-01T08:30:00.250000Z');
    fc.assert(
      fc.property(fc.integer({ min: -70_000_000_000_000, max: 260_000_000_000_000 }), (ms) => {
        expect(format(ms)).toBe(isoMicros(ms));
      }),
      { numRuns: 2000 },
    );
    // Repeated days come from its cache and must still be exact.
    for (const ms of [0, 1, 86_399_999, 86_400_000, -1, -86_400_001]) expect(format(ms)).toBe(isoMicros(ms));
  });
});
