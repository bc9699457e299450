import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { isoMicros, parseIsoInstant } from '../../../src/core/domain/time.js';

describe('parseIsoInstant', () => {
  it('reads UTC instants, offsets and fractions (truncated to milliseconds)', () => {
    expect(parseIsoInstant('2025-01-01T00:00:00Z')).toBe(Date.UTC(2025, 0, 1));
    expect(parseIsoInstant('2025-01-01T10:30Z')).toBe(Date.UTC(2025, 0, 1, 10, 30));
    expect(parseIsoInstant('2024-02-29T23:59:59.123456789Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59, 123));
    expect(parseIsoInstant('2025-01-01T01:00:00+01:00')).toBe(Date.UTC(2025, 0, 1));
    expect(parseIsoInstant('2025-01-01T00:00:00-0230')).toBe(Date.UTC(2025, 0, 1, 2, 30));
    expect(parseIsoInstant('2025-01-01T00:00:00.5Z')).toBe(Date.UTC(2025, 0, 1, 0, 0, 0, 500));
  });

  it.each([
    '2025-02-30T00:00:00Z', // 30 February
    '2025-02-29T00:00:00Z', // not a leap year
    '2025-04-31T00:00:00Z',
    '2025-13-01T00:00:00Z',
    '2025-00-10T00:00:00Z',
    '2025-01-00T00:00:00Z',
    '2025-01-01T24:00:00Z',
    '2025-01-01T23:60:00Z',
    '2025-01-01T23:59:60Z',
    '2025-01-01T00:00:00+24:00',
    '2025-01-01T00:00:00+01:60',
    '2025-01-01 00:00:00Z',
    '2025-01-01T00:00:00',
    '2025-01-01',
  ])('refuses %s', (text) => {
    expect(parseIsoInstant(text)).toBeNull();
  });

  it('round-trips every instant it prints', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9999, 11, 31) }), (ms) => {
        expect(parseIsoInstant(isoMicros(ms))).toBe(ms);
      }),
    );
  });
});
