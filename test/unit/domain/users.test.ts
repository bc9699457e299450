import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isWithinInterval,
  endedAt,
  isActiveEndorsement,
  isExpired,
  isListedAsRecent,
  isOpenTraining,
  membershipOf,
  parseIncludes,
  parseOnlyAtcActive,
  selectsUsers,
  trainingStatusDescription,
  unknownRelationMessage,
  validRelations,
  RECENTLY_ENDED_MS,
} from '../../../src/domain/users/index.js';

describe('parseIncludes', () => {
  it('reads valid names, ignoring duplicates and blank entries', () => {
    const r = parseIncludes(['allUsers', 'name', 'name', '', ' '], 'newer');
    expect(r).toEqual({
      ok: true,
      includes: {
        allUsers: true,
        endorsements: false,
        roles: false,
        training: false,
        name: true,
        email: false,
        divisions: false,
        activeAreas: false,
      },
    });
  });

  it('treats a missing list as no relations', () => {
    const r = parseIncludes(undefined, 'newer');
    expect(r.ok && selectsUsers(r.includes)).toBe(false);
  });

  it('is case-sensitive and reports every unknown name once', () => {
    expect(parseIncludes(['AllUsers', 'roles', 'bookings', 'AllUsers'], 'newer')).toEqual({
      ok: false,
      unknown: ['AllUsers', 'bookings'],
      valid: ['allUsers', 'endorsements', 'roles', 'training', 'name', 'email', 'divisions', 'activeAreas'],
    });
  });

  it('knows no activeAreas in the older variant', () => {
    expect(validRelations('older')).not.toContain('activeAreas');
    expect(parseIncludes(['activeAreas'], 'older')).toMatchObject({ ok: false, unknown: ['activeAreas'] });
    expect(parseIncludes(['activeAreas'], 'newer')).toMatchObject({ ok: true, includes: { activeAreas: true } });
  });

  it('names the unknown relations and lists the valid ones in the message', () => {
    expect(unknownRelationMessage(['x'], validRelations('older'))).toBe(
      'Unknown include relation "x"; valid relations are: allUsers, endorsements, roles, training, name, email, divisions.',
    );
    expect(unknownRelationMessage(['x', 'y'], ['name'])).toBe('Unknown include relations "x", "y"; valid relations are: name.');
  });

  it('only allUsers, endorsements, roles and training select users', () => {
    for (const name of ['allUsers', 'endorsements', 'roles', 'training']) {
      const r = parseIncludes([name], 'newer');
      expect(r.ok && selectsUsers(r.includes)).toBe(true);
    }
    const fields = parseIncludes(['name', 'email', 'divisions', 'activeAreas'], 'newer');
    expect(fields.ok && selectsUsers(fields.includes)).toBe(false);
  });
});

describe('parseOnlyAtcActive', () => {
  it('true and 1 are true; false, 0 and absence are false', () => {
    expect(parseOnlyAtcActive('true')).toBe(true);
    expect(parseOnlyAtcActive('1')).toBe(true);
    expect(parseOnlyAtcActive('false')).toBe(false);
    expect(parseOnlyAtcActive('0')).toBe(false);
    expect(parseOnlyAtcActive(undefined)).toBe(false);
  });
});

describe('membershipOf', () => {
  it('subdivisions win over the division; neither means everyone', () => {
    expect(membershipOf({ division: 'EUD', subdivisions: ['SCA', 'FIN'] })).toEqual({ kind: 'subdivisions', subdivisions: ['SCA', 'FIN'] });
    expect(membershipOf({ division: null, subdivisions: ['SCA'] })).toEqual({ kind: 'subdivisions', subdivisions: ['SCA'] });
    expect(membershipOf({ division: 'EUD', subdivisions: [] })).toEqual({ kind: 'division', division: 'EUD' });
    expect(membershipOf({ division: null, subdivisions: [] })).toEqual({ kind: 'everyone' });
  });
});

describe('training statuses', () => {
  it('describes every status and counts status >= 0 as open', () => {
    const expected: Array<[number, string, boolean]> = [
      [-4, 'Closed by system', false],
      [-3, 'Closed by student', false],
      [-2, 'Closed by staff', false],
      [-1, 'Completed', false],
      [0, 'In queue', true],
      [1, 'Pre-training', true],
      [2, 'Active training', true],
      [3, 'Awaiting exam', true],
    ];
    for (const [status, text, open] of expected) {
      expect(trainingStatusDescription(status)).toBe(text);
      expect(isOpenTraining(status)).toBe(open);
    }
  });
});

describe('endorsement activity', () => {
  const e = (valid_from: number, valid_to: number | null, revoked = false, revoked_at: number | null = null) => ({
    valid_from,
    valid_to,
    revoked,
    revoked_at,
  });

  it('is active from valid_from (inclusive) to valid_to (exclusive), unless revoked', () => {
    expect(isActiveEndorsement(e(100, 200), 99)).toBe(false);
    expect(isActiveEndorsement(e(100, 200), 100)).toBe(true);
    expect(isActiveEndorsement(e(100, 200), 199)).toBe(true);
    expect(isActiveEndorsement(e(100, 200), 200)).toBe(false);
    expect(isActiveEndorsement(e(100, null), 1e15)).toBe(true);
    expect(isActiveEndorsement(e(100, null, true, 150), 120)).toBe(false);
  });

  it('ended at the earlier of revocation and expiry', () => {
    expect(endedAt(e(0, 500), 400)).toBeNull();
    expect(endedAt(e(0, 500), 500)).toBe(500);
    expect(endedAt(e(0, null, true, 300), 400)).toBe(300);
    expect(endedAt(e(0, 200, true, 300), 400)).toBe(200);
    expect(endedAt(e(0, null, true, null), 400)).toBe(Number.NEGATIVE_INFINITY);
    expect(isExpired(e(0, 500), 499)).toBe(false);
    expect(isExpired(e(0, 500), 500)).toBe(true);
  });

  it('deprecated lists keep ended endorsements for 14 days (exclusive at the far end), not future ones', () => {
    const now = 100 * RECENTLY_ENDED_MS;
    expect(isListedAsRecent(e(0, now - RECENTLY_ENDED_MS + 1), now)).toBe(true);
    expect(isListedAsRecent(e(0, now - RECENTLY_ENDED_MS), now)).toBe(false);
    expect(isListedAsRecent(e(0, null, true, now - 1000), now)).toBe(true);
    expect(isListedAsRecent(e(0, null, true, now - RECENTLY_ENDED_MS), now)).toBe(false);
    expect(isListedAsRecent(e(now + 1, null), now)).toBe(false);
    expect(isListedAsRecent(e(0, null), now)).toBe(true);
  });

  it('two moments in the same interval between endorsement starts and ends see the same active endorsements', () => {
    const endorsement = fc.record({
      valid_from: fc.integer({ min: 0, max: 1000 }),
      length: fc.option(fc.integer({ min: 1, max: 1000 }), { nil: null }),
      revoked: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(endorsement, { maxLength: 20 }),
        fc.integer({ min: -10, max: 2100 }),
        fc.integer({ min: -10, max: 2100 }),
        (list, t1, t2) => {
          const rows = list.map((x) =>
            e(x.valid_from, x.length === null ? null : x.valid_from + x.length, x.revoked, x.revoked ? 0 : null),
          );
          const boundaries = rows
            .filter((r) => !r.revoked)
            .flatMap((r) => (r.valid_to === null ? [r.valid_from] : [r.valid_from, r.valid_to]));
          // The interval around t1, as the repository works it out: last boundary at or before it, first after it.
          const interval = {
            from: Math.max(-Infinity, ...boundaries.filter((b) => b <= t1)),
            to: Math.min(Infinity, ...boundaries.filter((b) => b > t1)),
          };
          expect(isWithinInterval(interval, t1)).toBe(true);
          const active = (t: number) => rows.map((r) => isActiveEndorsement(r, t)).join();
          if (isWithinInterval(interval, t2)) expect(active(t2)).toBe(active(t1));
        },
      ),
    );
  });

  it('treats an interval as half-open', () => {
    expect(isWithinInterval({ from: 10, to: 20 }, 10)).toBe(true);
    expect(isWithinInterval({ from: 10, to: 20 }, 19)).toBe(true);
    expect(isWithinInterval({ from: 10, to: 20 }, 20)).toBe(false);
    expect(isWithinInterval({ from: 10, to: 20 }, 9)).toBe(false);
  });
});
