// The reconcile's pure rules (contract §22): the hub's answers in every shape it uses, what makes
// the hub hold exactly Sector's roster and tiers, and §15's guard.
import { describe, expect, it } from 'vitest';
import { parseRoster, parseTierList, planSync, tooManyRemoved } from '../../../src/features/division-api/division-sync.domain.js';

describe("the hub's roster", () => {
  it('is read from the current answer, the older one, either without data, and a bare list', () => {
    expect(parseRoster({ data: { controllers: [1000001, 1000002] } })).toEqual([1000001, 1000002]);
    expect(parseRoster({ data: { roster_members: [{ user_cid: 1000001 }, { user_cid: '1000002' }] } })).toEqual([1000001, 1000002]);
    expect(parseRoster({ controllers: [1000001] })).toEqual([1000001]);
    expect(parseRoster({ roster_members: [{ user_cid: 1000001 }] })).toEqual([1000001]);
    expect(parseRoster([1000001, 1000001])).toEqual([1000001]);
    expect(parseRoster({ data: [] })).toEqual([]);
  });

  it('is refused in any other shape, rather than read as empty', () => {
    for (const body of [
      null,
      {},
      { data: {} },
      { data: { controllers: 'x' } },
      { data: { controllers: [1, 'x'] } },
      { data: { roster_members: [{}] } },
    ])
      expect(parseRoster(body)).toBeNull();
  });
});

describe("the hub's tier list", () => {
  it('is read with or without data; a record without id, user_cid or position refuses it', () => {
    const r = { id: 7, user_cid: 1000001, position: 'EKCH TWR', facility: 9, created_at: '2026-01-01 00:00:00' };
    expect(parseTierList(2, { data: [r] })).toEqual([{ tier: 2, id: 7, user_cid: 1000001, position: 'EKCH TWR' }]);
    expect(parseTierList(1, [r])).toEqual([{ tier: 1, id: 7, user_cid: 1000001, position: 'EKCH TWR' }]);
    expect(parseTierList(1, { data: [{ ...r, position: null }] })).toBeNull();
    expect(parseTierList(1, { data: { id: 1 } })).toBeNull();
  });
});

describe('the plan', () => {
  const rec = (id: number, user_cid: number, position = 'EKCH TWR', tier: 1 | 2 = 1) => ({ tier, id, user_cid, position });
  const want = (user_cid: number, issued_by: number | null = null, position = 'EKCH TWR', tier: 1 | 2 = 1) => ({
    tier,
    user_cid,
    position,
    issued_by,
  });

  it("adds and removes members and tier records; a duplicate on the hub goes; others' wanted tiers are not", () => {
    const plan = planSync(
      { roster: [1, 2, 9], tiers: [rec(10, 1), rec(11, 1), rec(12, 9), rec(13, 2, 'EKCH TWR', 2)] },
      { roster: [1, 2, 3], tiers: [want(1), want(2), want(3, 2), want(4)] },
      new Set(),
      1,
    );
    expect(plan.roster).toEqual({ add: [3], remove: [9] });
    expect(plan.tiers.remove.map((r) => r.id)).toEqual([11, 12, 13]);
    expect(plan.tiers.add).toEqual([
      { tier: 1, user_cid: 2, position: 'EKCH TWR', instructor_cid: 1 },
      { tier: 1, user_cid: 3, position: 'EKCH TWR', instructor_cid: 2 },
    ]);
  });

  it('leaves the tiers of members with an open request alone, and of those nobody can be named instructor for', () => {
    const plan = planSync(
      { roster: [1, 2], tiers: [rec(10, 1, 'ESSA TWR')] },
      { roster: [1, 2], tiers: [want(1), want(2)] },
      new Set([1]),
      null,
    );
    expect(plan.tiers).toEqual({ add: [], remove: [] });
    expect(plan.skipped.map((s) => s.user_cid)).toEqual([1, 2]);
  });
});

describe('the guard', () => {
  it('refuses removing more than half of the roster or of the tier endorsements, in one line', () => {
    const plan = (rosterOut: number, tiersOut: number) => ({
      roster: { add: [], remove: Array.from({ length: rosterOut }, (_, i) => i) },
      tiers: { add: [], remove: Array.from({ length: tiersOut }, (_, i) => ({ tier: 1 as const, id: i, user_cid: i, position: 'X' })) },
      skipped: [],
    });
    expect(tooManyRemoved(plan(50, 2), { roster: 100, tiers: 4 })).toBeNull();
    expect(tooManyRemoved(plan(51, 0), { roster: 100, tiers: 0 })).toBe(
      "the sync would remove 51 of the hub's 100 roster members (more than half): refused, nothing changed (npx sector division:sync --force applies it)",
    );
    expect(tooManyRemoved(plan(0, 3), { roster: 10, tiers: 4 })).toContain('remove 3 of its 4 tier endorsements (more than half)');
  });
});
