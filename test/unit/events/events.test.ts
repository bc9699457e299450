// The pure rules of events and deliveries (docs/events.md).
import { describe, expect, it } from 'vitest';
import { eventId } from '../../../src/core/outbox.js';
import { isEventId, parseEventFilter, retryDelay, webhookUrlProblem } from '../../../src/features/events/domain.js';

describe('event rules', () => {
  it('retries after the base, doubling, capped at an hour, until the last attempt', () => {
    expect([1, 2, 3, 4].map((n) => retryDelay(n, 5000, 10))).toEqual([5000, 10_000, 20_000, 40_000]);
    expect(retryDelay(9, 5000, 10)).toBe(1_280_000);
    expect(retryDelay(10, 5000, 10)).toBeNull();
    expect(retryDelay(20, 600_000, 30)).toBe(3_600_000);
  });

  it('makes ids that sort by time', () => {
    const a = eventId(1_700_000_000_000, new Uint8Array(16).fill(255));
    const b = eventId(1_700_000_000_001, new Uint8Array(16));
    expect(isEventId(a) && isEventId(b)).toBe(true);
    expect(a < b).toBe(true);
  });

  it('accepts http and https URLs and known event types only', () => {
    expect(webhookUrlProblem('https://example.org/hook')).toBeNull();
    expect(webhookUrlProblem('ftp://example.org')).toMatch(/http/);
    expect(webhookUrlProblem('nope')).toMatch(/not a URL/);
    expect(parseEventFilter('booking.created, booking.deleted')).toEqual(['booking.created', 'booking.deleted']);
    expect(() => parseEventFilter('booking.exploded')).toThrow(/unknown event type/);
  });
});
