import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeCursor,
  encodeCursor,
  flagsForTag,
  isActiveEndorsement,
  mustForceTraining,
  overlaps,
  parseClockTime,
  parseDayMonthYear,
  parseWindowBound,
  periodOn,
  planBooking,
  RULE_MESSAGES,
  schedule,
  type PlanContext,
} from '../../../src/features/bookings/domain/index.js';

const utc = (y: number, mo: number, d: number, h = 0, mi = 0) => Date.UTC(y, mo - 1, d, h, mi);

describe('parseDayMonthYear', () => {
  it('accepts d/m/Y with and without leading zeros', () => {
    expect(parseDayMonthYear('1/2/2026')).toEqual({ year: 2026, month: 2, day: 1 });
    expect(parseDayMonthYear('01/02/2026')).toEqual({ year: 2026, month: 2, day: 1 });
    expect(parseDayMonthYear('31/12/2026')).toEqual({ year: 2026, month: 12, day: 31 });
  });

  it('accepts 29 February only in leap years', () => {
    expect(parseDayMonthYear('29/02/2028')).toEqual({ year: 2028, month: 2, day: 29 });
    expect(parseDayMonthYear('29/02/2000')).toEqual({ year: 2000, month: 2, day: 29 });
    expect(parseDayMonthYear('29/02/2027')).toBeNull();
    expect(parseDayMonthYear('29/02/2100')).toBeNull();
  });

  it('rejects impossible dates and other formats', () => {
    for (const text of [
      '30/02/2026',
      '31/04/2026',
      '0/1/2026',
      '1/0/2026',
      '1/13/2026',
      '32/1/2026',
      '2026-02-01',
      '01/02/26',
      '1.2.2026',
      '001/02/2026',
      ' 1/2/2026',
      '',
    ]) {
      expect(parseDayMonthYear(text), text).toBeNull();
    }
  });
});

describe('parseClockTime', () => {
  it('accepts H:i from 0:00 to 23:59 with or without a leading zero', () => {
    expect(parseClockTime('9:00')).toBe(540);
    expect(parseClockTime('09:00')).toBe(540);
    expect(parseClockTime('0:00')).toBe(0);
    expect(parseClockTime('23:59')).toBe(23 * 60 + 59);
  });

  it('rejects 24:00, bad minutes and other shapes', () => {
    for (const text of ['24:00', '23:60', '9:5', '0900', '9:00:00', '-1:00', '9h00', '', '009:00']) {
      expect(parseClockTime(text), text).toBeNull();
    }
  });
});

describe('periodOn', () => {
  const day = { year: 2026, month: 2, day: 1 };

  it('is the same day when the end is after the start', () => {
    expect(periodOn(day, 10 * 60, 12 * 60)).toEqual({ start: utc(2026, 2, 1, 10), end: utc(2026, 2, 1, 12) });
  });

  it('crosses midnight when the end is before the start', () => {
    expect(periodOn(day, 22 * 60, 2 * 60)).toEqual({ start: utc(2026, 2, 1, 22), end: utc(2026, 2, 2, 2) });
    expect(periodOn(day, 23 * 60 + 59, 0)).toEqual({ start: utc(2026, 2, 1, 23, 59), end: utc(2026, 2, 2, 0) });
  });

  it('is no period when start and end are the same', () => {
    expect(periodOn(day, 600, 600)).toBeNull();
    expect(periodOn(day, 0, 0)).toBeNull();
  });

  it('crosses 31 December into the next year', () => {
    expect(periodOn({ year: 2026, month: 12, day: 31 }, 23 * 60, 1 * 60)).toEqual({
      start: utc(2026, 12, 31, 23),
      end: utc(2027, 1, 1, 1),
    });
  });

  it('crosses 28 February into 29 February in a leap year and into 1 March otherwise', () => {
    expect(periodOn({ year: 2028, month: 2, day: 28 }, 22 * 60, 60)?.end).toBe(utc(2028, 2, 29, 1));
    expect(periodOn({ year: 2027, month: 2, day: 28 }, 22 * 60, 60)?.end).toBe(utc(2027, 3, 1, 1));
    expect(periodOn({ year: 2028, month: 2, day: 29 }, 22 * 60, 60)?.end).toBe(utc(2028, 3, 1, 1));
  });

  it('always yields a period of less than a day, starting on the given date', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1439 }), fc.integer({ min: 0, max: 1439 }), (s, e) => {
        const p = periodOn(day, s, e);
        if (s === e) return p === null;
        return p !== null && p.end > p.start && p.end - p.start < 86_400_000 && p.start - utc(2026, 2, 1) === s * 60_000;
      }),
    );
  });
});

describe('overlaps (half-open)', () => {
  const p = (a: number, b: number) => ({ start: a, end: b });

  it('does not count adjacency as overlap', () => {
    expect(overlaps(p(10, 12), p(12, 14))).toBe(false);
    expect(overlaps(p(12, 14), p(10, 12))).toBe(false);
  });

  it('counts partial overlap, containment and identity', () => {
    expect(overlaps(p(10, 12), p(11, 13))).toBe(true);
    expect(overlaps(p(10, 14), p(11, 12))).toBe(true);
    expect(overlaps(p(11, 12), p(10, 14))).toBe(true);
    expect(overlaps(p(10, 12), p(10, 12))).toBe(true);
  });

  it('treats a midnight-crossing period like any other', () => {
    const night = periodOn({ year: 2026, month: 2, day: 1 }, 22 * 60, 2 * 60)!;
    expect(overlaps(night, periodOn({ year: 2026, month: 2, day: 2 }, 1 * 60, 3 * 60)!)).toBe(true);
    expect(overlaps(night, periodOn({ year: 2026, month: 2, day: 2 }, 2 * 60, 3 * 60)!)).toBe(false);
  });

  it('is symmetric and agrees with a minute-by-minute check', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 0, max: 50 }),
        fc.integer({ min: 1, max: 20 }),
        (a, la, b, lb) => {
          const x = p(a, a + la);
          const y = p(b, b + lb);
          let shared = false;
          for (let t = 0; t < 80; t++) if (t >= x.start && t < x.end && t >= y.start && t < y.end) shared = true;
          return overlaps(x, y) === shared && overlaps(y, x) === shared;
        },
      ),
    );
  });
});

describe('flags and forced training', () => {
  const NOW = utc(2026, 1, 15, 12);
  const active = { valid_from: utc(2025, 1, 1), valid_to: null, revoked: 0 };

  it('maps tags to exactly one flag, and no tag to none', () => {
    expect(flagsForTag(1)).toEqual({ training: 1, exam: 0, event: 0 });
    expect(flagsForTag(2)).toEqual({ training: 0, exam: 1, event: 0 });
    expect(flagsForTag(3)).toEqual({ training: 0, exam: 0, event: 1 });
    expect(flagsForTag(null)).toEqual({ training: 0, exam: 0, event: 0 });
  });

  it('knows an active endorsement: not revoked, started, not ended', () => {
    expect(isActiveEndorsement(active, NOW)).toBe(true);
    expect(isActiveEndorsement({ ...active, valid_from: NOW }, NOW)).toBe(true);
    expect(isActiveEndorsement({ ...active, valid_to: NOW + 1 }, NOW)).toBe(true);
    expect(isActiveEndorsement({ ...active, valid_to: NOW }, NOW)).toBe(false);
    expect(isActiveEndorsement({ ...active, valid_from: NOW + 1 }, NOW)).toBe(false);
    expect(isActiveEndorsement({ ...active, revoked: 1 }, NOW)).toBe(false);
  });

  const check = { userRating: 4, positionRating: 3, requiredFacility: null, facilityEndorsements: [], now: NOW };

  it('forces training below the position rating, not at or above it', () => {
    expect(mustForceTraining({ ...check, userRating: 2 })).toBe(true);
    expect(mustForceTraining({ ...check, userRating: 3 })).toBe(false);
    expect(mustForceTraining(check)).toBe(false);
  });

  it('forces training when the required facility endorsement is missing or not active', () => {
    const f = { ...check, requiredFacility: 'T1 EKCH TWR' };
    expect(mustForceTraining(f)).toBe(true);
    expect(mustForceTraining({ ...f, facilityEndorsements: [active] })).toBe(false);
    expect(mustForceTraining({ ...f, facilityEndorsements: [{ ...active, revoked: 1 }] })).toBe(true);
    expect(mustForceTraining({ ...f, facilityEndorsements: [{ ...active, valid_to: NOW - 1 }] })).toBe(true);
    expect(mustForceTraining({ ...f, facilityEndorsements: [{ ...active, valid_from: NOW + 1 }] })).toBe(true);
    expect(mustForceTraining({ ...f, facilityEndorsements: [{ ...active, revoked: 1 }, active] })).toBe(false);
    // The endorsement does not make up for a rating below the position's.
    expect(mustForceTraining({ ...f, userRating: 2, facilityEndorsements: [active] })).toBe(true);
  });
});

describe('planBooking', () => {
  const NOW = utc(2026, 1, 15, 12);
  const base: PlanContext = {
    fields: { cid: 1, date: { year: 2026, month: 2, day: 1 }, start_at: 600, end_at: 720, position: 'EKCH_TWR', tag: null, source: 'CC' },
    existing: null,
    user: { id: 1, rating: 4 },
    position: { id: 7, rating: 3, required_facility: null },
    facilityEndorsements: [],
    now: NOW,
  };

  it('plans a booking with its period and flags', () => {
    expect(planBooking(base)).toEqual({
      ok: true,
      forcedTraining: false,
      booking: {
        user_id: 1,
        position_id: 7,
        time_start: utc(2026, 2, 1, 10),
        time_end: utc(2026, 2, 1, 12),
        training: 0,
        training_forced: 0,
        exam: 0,
        event: 0,
      },
    });
  });

  it('reports an unknown user and an unknown position together, before any other rule', () => {
    const r = planBooking({ ...base, user: null, position: null, fields: { ...base.fields, end_at: 600 } });
    expect(r).toEqual({
      ok: false,
      errors: { cid: [RULE_MESSAGES.unknownUser(1)], position: [RULE_MESSAGES.unknownPosition('EKCH_TWR')] },
    });
  });

  it('refuses equal start and end under end_at before checking the past', () => {
    const r = planBooking({ ...base, fields: { ...base.fields, date: { year: 2020, month: 1, day: 1 }, end_at: 600 } });
    expect(r).toEqual({ ok: false, errors: { end_at: [RULE_MESSAGES.sameStartEnd] } });
  });

  it('refuses a start in the past, but not a start at now', () => {
    const today = { year: 2026, month: 1, day: 15 };
    expect(planBooking({ ...base, fields: { ...base.fields, date: today, start_at: 11 * 60 + 59, end_at: 13 * 60 } })).toEqual({
      ok: false,
      errors: { start_at: [RULE_MESSAGES.startInPast] },
    });
    expect(planBooking({ ...base, fields: { ...base.fields, date: today, start_at: 12 * 60, end_at: 13 * 60 } }).ok).toBe(true);
  });

  it('forces training on top of the tag', () => {
    const r = planBooking({ ...base, fields: { ...base.fields, tag: 3 }, user: { id: 1, rating: 2 } });
    expect(r).toMatchObject({ ok: true, forcedTraining: true, booking: { training: 1, training_forced: 1, exam: 0, event: 1 } });
  });

  it('records a chosen training tag as chosen, even where it would also be forced', () => {
    const r = planBooking({ ...base, fields: { ...base.fields, tag: 1 }, user: { id: 1, rating: 2 } });
    expect(r).toMatchObject({ ok: true, forcedTraining: true, booking: { training: 1, training_forced: 0 } });
  });

  describe('on update', () => {
    const existing = {
      user_id: 1,
      position_id: 7,
      time_start: utc(2026, 1, 15, 11),
      time_end: utc(2026, 1, 15, 13),
      training: 0,
      training_forced: 0,
      exam: 1,
      event: 0,
    };

    it('extends an ongoing booking (the start does not change)', () => {
      const r = planBooking({ ...base, existing, fields: { end_at: 14 * 60 } });
      expect(r).toMatchObject({ ok: true, booking: { time_start: existing.time_start, time_end: utc(2026, 1, 15, 14), exam: 1 } });
    });

    it('refuses moving the start into the past', () => {
      expect(planBooking({ ...base, existing, fields: { start_at: 11 * 60 + 30 } })).toEqual({
        ok: false,
        errors: { start_at: [RULE_MESSAGES.startInPast] },
      });
    });

    it('keeps the stored period exactly when no date or time is given, and the flags when no tag is given', () => {
      const odd = { ...existing, time_start: utc(2026, 3, 1, 10) + 30_000, time_end: utc(2026, 3, 3, 10) };
      expect(planBooking({ ...base, existing: odd, fields: {} })).toMatchObject({
        ok: true,
        booking: { time_start: odd.time_start, time_end: odd.time_end, exam: 1 },
      });
    });

    it('removes the tag with an explicit null', () => {
      expect(planBooking({ ...base, existing, fields: { tag: null, date: { year: 2026, month: 3, day: 1 } } })).toMatchObject({
        ok: true,
        booking: { training: 0, exam: 0, event: 0 },
      });
    });

    it('lifts forced training when the booker becomes qualified, keeping the chosen tag', () => {
      const forced = { ...existing, training: 1, training_forced: 1, exam: 0, event: 1 };
      const qualified = planBooking({ ...base, existing: forced, fields: { cid: 2 }, user: { id: 2, rating: 4 } });
      expect(qualified).toMatchObject({
        ok: true,
        forcedTraining: false,
        booking: { user_id: 2, training: 0, training_forced: 0, event: 1 },
      });
      const stillNot = planBooking({ ...base, existing: forced, fields: { end_at: 14 * 60 }, user: { id: 1, rating: 2 } });
      expect(stillNot).toMatchObject({ ok: true, forcedTraining: true, booking: { training: 1, training_forced: 1, event: 1 } });
    });

    it('keeps chosen training when the booker becomes qualified', () => {
      const chosen = { ...existing, training: 1, training_forced: 0, exam: 0 };
      const r = planBooking({ ...base, existing: chosen, fields: { cid: 2 }, user: { id: 2, rating: 4 } });
      expect(r).toMatchObject({ ok: true, forcedTraining: false, booking: { training: 1, training_forced: 0 } });
    });

    it('moves a booking to another date keeping its times, crossing midnight as before', () => {
      const night = { ...existing, time_start: utc(2026, 2, 1, 22), time_end: utc(2026, 2, 2, 2) };
      expect(schedule({ date: { year: 2026, month: 12, day: 31 } }, { start: night.time_start, end: night.time_end })).toEqual({
        start: utc(2026, 12, 31, 22),
        end: utc(2027, 1, 1, 2),
      });
    });
  });
});

describe('list query helpers', () => {
  it('parses ISO dates and date-times as window bounds', () => {
    expect(parseWindowBound('2026-02-01', 'from')).toBe(utc(2026, 2, 1));
    expect(parseWindowBound('2026-02-01', 'to')).toBe(utc(2026, 2, 2));
    expect(parseWindowBound('2026-02-01T10:00:00Z', 'to')).toBe(utc(2026, 2, 1, 10));
    expect(parseWindowBound('2026-02-01T10:00', 'from')).toBe(utc(2026, 2, 1, 10));
    expect(parseWindowBound('2026-02-01T10:00:00.250Z', 'from')).toBe(utc(2026, 2, 1, 10) + 250);
    expect(parseWindowBound('2026-02-01T12:00:00+02:00', 'from')).toBe(utc(2026, 2, 1, 10));
    expect(parseWindowBound('2026-02-01T12:00:00 02:00', 'from')).toBe(utc(2026, 2, 1, 10));
    expect(parseWindowBound('2026-02-01T08:00:00-0200', 'from')).toBe(utc(2026, 2, 1, 10));
    expect(parseWindowBound('2028-02-29', 'from')).toBe(utc(2028, 2, 29));
  });

  it('rejects anything else', () => {
    for (const text of ['1/2/2026', '2026-02-30', '2027-02-29', '2026-02-01T24:00', 'tomorrow', '', '2026-2-1']) {
      expect(parseWindowBound(text, 'from'), text).toBeNull();
    }
  });

  it('round-trips cursors and rejects tampered ones', () => {
    const c = encodeCursor({ time_start: utc(2026, 2, 1, 10), id: 42 });
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c)).toEqual({ time_start: utc(2026, 2, 1, 10), id: 42 });
    for (const bad of [
      '',
      'not a cursor',
      Buffer.from('[1]').toString('base64url'),
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from('[1.5,2]').toString('base64url'),
    ]) {
      expect(decodeCursor(bad), bad).toBeNull();
    }
  });
});
