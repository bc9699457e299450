import { describe, expect, it } from 'vitest';
import {
  endedAt,
  isActiveEndorsement,
  isExpired,
  isListedAsRecent,
  RECENTLY_ENDED_MS,
} from '../../../src/features/endorsements/times.domain.js';
import { isOpenTraining, trainingStatusDescription } from '../../../src/features/members/domain/training-status.js';
import {
  membershipOf,
  parseIncludes,
  parseOnlyAtcActive,
  selectsUsers,
  unknownRelationMessage,
  validRelations,
} from '../../../src/features/members/domain/index.js';

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
});
