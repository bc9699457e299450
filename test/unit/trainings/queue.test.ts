// The queue's estimate of a wait (from the waits of trainings that left the queue) and the wait so
// far of one training, pauses left out.
import { describe, expect, it } from 'vitest';
import { queueEstimate, queueWait } from '../../../src/features/trainings/domain.js';

const DAY = 86_400_000;

describe('queueEstimate', () => {
  it('gives no estimate from an empty history, one wait, or fewer than four', () => {
    expect(queueEstimate([])).toBeNull();
    expect(queueEstimate([10 * DAY])).toBeNull();
    expect(queueEstimate([10 * DAY, 20 * DAY])).toBeNull();
    expect(queueEstimate([10 * DAY, 20 * DAY, 30 * DAY])).toBeNull();
  });

  it('from many waits, spans the upper half: from the median (the upper one of an even count) to the longest', () => {
    expect(queueEstimate([4, 1, 3, 2])).toEqual({ low: 3, high: 4 });
    expect(queueEstimate([5, 1, 4, 2, 3])).toEqual({ low: 3, high: 5 });
    expect(queueEstimate([60, 10, 50, 20, 40, 30])).toEqual({ low: 40, high: 60 });
    const many = Array.from({ length: 101 }, (_, i) => (i * 37) % 101);
    expect(queueEstimate(many)).toEqual({ low: 50, high: 100 });
  });

  it('sorts by value, not as text, and counts equal waits each', () => {
    expect(queueEstimate([9, 10, 100, 2])).toEqual({ low: 10, high: 100 });
    expect(queueEstimate([7, 7, 7, 7])).toEqual({ low: 7, high: 7 });
    expect(queueEstimate([1, 1, 1, 9, 9])).toEqual({ low: 1, high: 9 });
  });

  it('leaves the history it was given in its order', () => {
    const waits = [40, 10, 30, 20];
    queueEstimate(waits);
    expect(waits).toEqual([40, 10, 30, 20]);
  });
});

describe('queueWait', () => {
  const created = 1_000 * DAY;

  it('is the time since the request when it never paused, zero at the moment it was made', () => {
    expect(queueWait({ created_at: created, paused_ms: 0, paused_at: null }, created)).toBe(0);
    expect(queueWait({ created_at: created, paused_ms: 0, paused_at: null }, created + 10 * DAY)).toBe(10 * DAY);
  });

  it('leaves out past pauses and a pause under way, up to now', () => {
    expect(queueWait({ created_at: created, paused_ms: 3 * DAY, paused_at: null }, created + 10 * DAY)).toBe(7 * DAY);
    expect(queueWait({ created_at: created, paused_ms: 0, paused_at: created + 4 * DAY }, created + 10 * DAY)).toBe(4 * DAY);
    expect(queueWait({ created_at: created, paused_ms: 3 * DAY, paused_at: created + 8 * DAY }, created + 10 * DAY)).toBe(5 * DAY);
    // A pause under way stops the clock: the wait stays the same however long it lasts.
    const paused = { created_at: created, paused_ms: 0, paused_at: created + 2 * DAY };
    expect(queueWait(paused, created + 5 * DAY)).toBe(queueWait(paused, created + 50 * DAY));
  });

  it('is never below zero (a clock behind the request, or pauses over the whole wait)', () => {
    expect(queueWait({ created_at: created, paused_ms: 0, paused_at: null }, created - DAY)).toBe(0);
    expect(queueWait({ created_at: created, paused_ms: 20 * DAY, paused_at: null }, created + 10 * DAY)).toBe(0);
  });
});
