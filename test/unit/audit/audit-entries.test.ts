import { describe, expect, it } from 'vitest';
import {
  actorColumns,
  type AuditedBooking,
  auditJsonLine,
  auditTable,
  bookingAction,
  bookingDiff,
} from '../../../src/features/audit/domain/index.js';
import { routeLabel } from '../../../src/core/metrics.js';

const BOOKING: AuditedBooking = {
  user_id: 1000001,
  callsign: 'EKCH_TWR',
  time_start: Date.UTC(2026, 2, 1, 10),
  time_end: Date.UTC(2026, 2, 1, 12),
  training: 0,
  training_forced: 0,
  exam: 0,
  event: 0,
  source: 'CC',
  network_booking: null,
  deleted: 0,
};

describe('audit entries', () => {
  it('a creation shows every field after, with booking times as the API shows them', () => {
    expect(bookingAction(null, BOOKING)).toBe('booking.created');
    const diff = bookingDiff(null, BOOKING)!;
    expect(diff.before).toBeNull();
    expect(diff.after).toMatchObject({
      callsign: 'EKCH_TWR',
      time_start: '2026-03-01 10:00:00',
      time_end: '2026-03-01 12:00:00',
      deleted: 0,
    });
    expect(Object.keys(diff.after!)).toHaveLength(11);
  });

  it('an update shows only the fields that differ; no change is no entry', () => {
    const after = { ...BOOKING, callsign: 'EKCH_APP', training: 1, training_forced: 1 };
    expect(bookingAction(BOOKING, after)).toBe('booking.updated');
    expect(bookingDiff(BOOKING, after)).toEqual({
      before: { callsign: 'EKCH_TWR', training: 0, training_forced: 0 },
      after: { callsign: 'EKCH_APP', training: 1, training_forced: 1 },
    });
    expect(bookingDiff(BOOKING, { ...BOOKING })).toBeNull();
  });

  it('a deletion shows the booking before and deleted after; a restore is an update', () => {
    const gone = { ...BOOKING, deleted: 1 };
    expect(bookingAction(BOOKING, gone)).toBe('booking.deleted');
    expect(bookingDiff(BOOKING, gone)).toEqual({ before: bookingDiff(null, BOOKING)!.after, after: { deleted: 1 } });
    expect(bookingAction(gone, BOOKING)).toBe('booking.updated');
    expect(bookingDiff(gone, BOOKING)).toEqual({ before: { deleted: 1 }, after: { deleted: 0 } });
  });

  it('actors are stored as key:<id> with the name apart, or cli', () => {
    expect(actorColumns({ kind: 'key', keyId: 'abc', keyName: 'bot' })).toEqual({ actor: 'key:abc', actor_name: 'bot' });
    expect(actorColumns({ kind: 'cli' })).toEqual({ actor: 'cli', actor_name: null });
  });

  it('prints JSON lines with fixed keys and microsecond times, and aligned tables', () => {
    const entry = {
      at: Date.UTC(2026, 0, 2, 3, 4, 5, 678),
      actor: 'cli',
      actor_name: null,
      action: 'import',
      target: 'x.json',
      before: null,
      after: { users: 2 },
    };
    expect(auditJsonLine(entry)).toBe(
      '{"at":"2026-01-02T03:04:05.678000Z","actor":"cli","actor_name":null,"action":"import","target":"x.json","before":null,"after":{"users":2}}',
    );
    const table = auditTable([
      entry,
      { ...entry, actor: 'key:0123456789abcdef', actor_name: 'roster', action: 'booking.updated', before: { a: 1 }, after: { a: 2 } },
    ]);
    expect(table[0]).toMatch(/^TIME {17}ACTOR {26}ACTION {11}TARGET {2}CHANGES$/);
    expect(table[2]).toContain('a: 1 -> 2');
    expect(new Set(table.map((l) => (l.indexOf('x.json') >= 0 ? l.indexOf('x.json') : l.indexOf('TARGET')))).size).toBe(1);
  });
});

describe('metrics route labels', () => {
  it('drops parameter patterns from route templates', () => {
    expect(routeLabel('/api/bookings/:id(^\\d{1,10}$)')).toBe('/api/bookings/:id');
    expect(routeLabel('/api/positions')).toBe('/api/positions');
  });
});
