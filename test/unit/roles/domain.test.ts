// The permission table of contract §17, row by row: each allowed and refused at least once.
import { describe, expect, it } from 'vitest';
import { ForbiddenError } from '../../../src/core/domain/errors.js';
import { authorize, holdsAnyRole, mayDo, type StaffAction, type StaffMember } from '../../../src/features/roles/domain.js';

const DK = 1;
const SE = 2;
const STUDENT = 1000010;
const OTHER = 1000011;

const member = (roles: Array<[number, string]>, extra: Partial<StaffMember> = {}): StaffMember => {
  const areaRoles = new Map<number, Set<string>>();
  for (const [area, role] of roles) areaRoles.set(area, (areaRoles.get(area) ?? new Set()).add(role));
  return { cid: 1, divisionAdmin: false, areaRoles, trainees: [], ...extra };
};

const divisionAdmin = member([], { divisionAdmin: true });
const admin = member([[DK, 'Administrator']]);
const moderator = member([[DK, 'Moderator']]);
const mentor = member([[DK, 'Mentor']], { trainees: [{ cid: STUDENT, area: DK }] });
const buddy = member([[DK, 'Buddy']]);
const nobody = member([]);

const cases: Array<[string, StaffMember, StaffAction, boolean]> = [
  // grant/revoke Moderator, Mentor, Buddy in the area
  ['an Administrator grants Moderator in their area', admin, { kind: 'role', role: 'Moderator', area: DK }, true],
  ['an Administrator does not grant in another area', admin, { kind: 'role', role: 'Moderator', area: SE }, false],
  ['a Moderator grants Mentor', moderator, { kind: 'role', role: 'Mentor', area: DK }, true],
  ['a Moderator grants Buddy', moderator, { kind: 'role', role: 'Buddy', area: DK }, true],
  ['a Moderator does not grant Moderator', moderator, { kind: 'role', role: 'Moderator', area: DK }, false],
  ['a Mentor grants nothing', mentor, { kind: 'role', role: 'Buddy', area: DK }, false],
  ['a Buddy grants nothing', buddy, { kind: 'role', role: 'Buddy', area: DK }, false],
  // grant/revoke Administrator of an area
  ['a division-wide Administrator grants Administrator of an area', divisionAdmin, { kind: 'role', role: 'Administrator', area: SE }, true],
  [
    'a division-wide Administrator grants division-wide Administrator',
    divisionAdmin,
    { kind: 'role', role: 'Administrator', area: null },
    true,
  ],
  ["an area's Administrator does not grant Administrator", admin, { kind: 'role', role: 'Administrator', area: DK }, false],
  // positions of the area
  ['an Administrator manages the positions of the area', admin, { kind: 'positions', area: DK }, true],
  ['a division-wide Administrator manages positions without an area', divisionAdmin, { kind: 'positions', area: null }, true],
  ['a Moderator does not manage positions', moderator, { kind: 'positions', area: DK }, false],
  ['an Administrator does not manage positions without an area', admin, { kind: 'positions', area: null }, false],
  // facility, visiting, examiner endorsements
  ['an Administrator issues a visiting endorsement', admin, { kind: 'endorsement', type: 'visiting', areas: [DK], student: OTHER }, true],
  ['a Moderator issues a facility endorsement', moderator, { kind: 'endorsement', type: 'facility', areas: [DK], student: OTHER }, true],
  [
    'a Moderator does not issue for an area not theirs',
    moderator,
    { kind: 'endorsement', type: 'examiner', areas: [DK, SE], student: OTHER },
    false,
  ],
  [
    'a Mentor does not issue a facility endorsement, even to a trainee',
    mentor,
    { kind: 'endorsement', type: 'facility', areas: [DK], student: STUDENT },
    false,
  ],
  ['a Buddy does not issue endorsements', buddy, { kind: 'endorsement', type: 'visiting', areas: [DK], student: OTHER }, false],
  // solo endorsements
  ['a Moderator issues a solo', moderator, { kind: 'endorsement', type: 'solo', areas: [DK], student: OTHER }, true],
  ['a Mentor issues a solo for their own trainee', mentor, { kind: 'endorsement', type: 'solo', areas: [DK], student: STUDENT }, true],
  [
    "a Mentor does not issue a solo for someone else's trainee",
    mentor,
    { kind: 'endorsement', type: 'solo', areas: [DK], student: OTHER },
    false,
  ],
  ['a Buddy does not issue a solo', buddy, { kind: 'endorsement', type: 'solo', areas: [DK], student: STUDENT }, false],
  // trainings
  ['a Moderator manages trainings', moderator, { kind: 'training', area: DK, student: OTHER, statusOnly: false }, true],
  ["a Mentor moves their own trainee's status", mentor, { kind: 'training', area: DK, student: STUDENT, statusOnly: true }, true],
  ['a Mentor does not assign mentors or close', mentor, { kind: 'training', area: DK, student: STUDENT, statusOnly: false }, false],
  ["a Mentor does not move someone else's trainee", mentor, { kind: 'training', area: DK, student: OTHER, statusOnly: true }, false],
  // training reports
  ['an Administrator writes reports', admin, { kind: 'report', area: DK, student: OTHER }, true],
  ['a Mentor writes reports for their own trainee', mentor, { kind: 'report', area: DK, student: STUDENT }, true],
  ["a Mentor does not write reports for someone else's trainee", mentor, { kind: 'report', area: DK, student: OTHER }, false],
  ['a Buddy writes reports for trainings of the area', buddy, { kind: 'report', area: DK, student: OTHER }, true],
  ['a Buddy does not write reports in another area', buddy, { kind: 'report', area: SE, student: OTHER }, false],
  // examinations
  ['a Moderator records examinations of the area', moderator, { kind: 'examination', area: DK, examiners: [OTHER], graded: false }, true],
  [
    'the examiner records their own examination',
    member([], { cid: OTHER }),
    { kind: 'examination', area: DK, examiners: [OTHER], graded: false },
    true,
  ],
  [
    'the second examiner records their examination',
    member([], { cid: OTHER }),
    { kind: 'examination', area: DK, examiners: [STUDENT, OTHER], graded: false },
    true,
  ],
  [
    "a Buddy does not record someone else's examination",
    buddy,
    { kind: 'examination', area: DK, examiners: [OTHER], graded: false },
    false,
  ],
  ['a Moderator corrects a graded examination', moderator, { kind: 'examination', area: DK, examiners: [OTHER], graded: true }, true],
  [
    'the examiner does not correct a graded examination',
    member([], { cid: OTHER }),
    { kind: 'examination', area: DK, examiners: [OTHER], graded: true },
    false,
  ],
  ['a Mentor does not correct a graded examination', mentor, { kind: 'examination', area: DK, examiners: [OTHER], graded: true }, false],
  // bookings of the area
  ['a Moderator books anything in the area', moderator, { kind: 'bookings', area: DK }, true],
  ['a division-wide Administrator books anything anywhere', divisionAdmin, { kind: 'bookings', area: SE }, true],
  ['a Mentor does not book for others', mentor, { kind: 'bookings', area: DK }, false],
  ['a member without a role does nothing of this', nobody, { kind: 'bookings', area: DK }, false],
  // report templates (§20): kept by the area's Moderators and Administrators
  ['a Moderator keeps the area’s report templates', moderator, { kind: 'templates', area: DK }, true],
  ['an Administrator keeps the area’s report templates', admin, { kind: 'templates', area: DK }, true],
  ['a division-wide Administrator keeps every area’s report templates', divisionAdmin, { kind: 'templates', area: SE }, true],
  ['a Moderator does not keep another area’s report templates', moderator, { kind: 'templates', area: SE }, false],
  ['a Mentor does not keep report templates', mentor, { kind: 'templates', area: DK }, false],
  ['a Buddy does not keep report templates', buddy, { kind: 'templates', area: DK }, false],
];

describe('who may do what (contract §17)', () => {
  it.each(cases)('%s', (_, staff, action, allowed) => {
    const decision = mayDo(staff, action);
    expect(decision.ok).toBe(allowed);
    if (!decision.ok) expect(decision.reason).toMatch(/\w.*\.$/);
  });

  it('shows the Staff link to anyone holding a role, and to nobody else', () => {
    expect([divisionAdmin, admin, moderator, mentor, buddy, nobody].map(holdsAnyRole)).toEqual([true, true, true, true, true, false]);
  });
});

describe('authorize: the one permission check of the services', () => {
  it('returns when the table allows the action on its target', () => {
    expect(authorize(moderator, 'training', { area: DK, student: OTHER, statusOnly: false })).toBeUndefined();
    expect(authorize(mentor, 'report', { area: DK, student: STUDENT })).toBeUndefined();
  });

  it("throws the domain's ForbiddenError with the table's reason when it refuses", () => {
    const refusal = mayDo(moderator, { kind: 'role', role: 'Moderator', area: DK });
    expect(() => authorize(moderator, 'role', { role: 'Moderator', area: DK })).toThrow(ForbiddenError);
    expect(() => authorize(moderator, 'role', { role: 'Moderator', area: DK })).toThrow(refusal.ok ? 'unexpected' : refusal.reason);
    expect(() => authorize(buddy, 'examination', { area: DK, examiners: [OTHER], graded: false })).toThrow(
      "Examinations are recorded by the area's Administrators and Moderators, or by the examiner.",
    );
  });
});
