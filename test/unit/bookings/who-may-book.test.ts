import { describe, expect, it } from 'vitest';
import {
  type Booker,
  type BookablePosition,
  mayBook,
  mayBookFor,
  mayChange,
  positionsOffered,
  REFUSALS,
  tagsOffered,
} from '../../../src/features/bookings/domain/who-may-book.js';
import { RATINGS } from '../../../src/features/members/domain/ratings.js';

const DENMARK = 1;
const SWEDEN = 2;

const EKCH_DEL: BookablePosition = { callsign: 'EKCH_DEL', area_id: DENMARK, rating: RATINGS.S1 };
const EKCH_TWR: BookablePosition = { callsign: 'EKCH_TWR', area_id: DENMARK, rating: RATINGS.S2 };
const EKCH_APP: BookablePosition = { callsign: 'EKCH_APP', area_id: DENMARK, rating: RATINGS.S3 };
const EKDK_CTR: BookablePosition = { callsign: 'EKDK_CTR', area_id: DENMARK, rating: RATINGS.C1 };
const ESSA_TWR: BookablePosition = { callsign: 'ESSA_TWR', area_id: SWEDEN, rating: RATINGS.S2 };
const NOWHERE: BookablePosition = { callsign: 'XXXX_TWR', area_id: null, rating: RATINGS.S1 };
const ALL = [EKCH_DEL, EKCH_TWR, EKCH_APP, EKDK_CTR, ESSA_TWR, NOWHERE];

function persona(overrides: Partial<Booker> = {}): Booker {
  return {
    cid: 1000001,
    rating: RATINGS.S2,
    member: true,
    activeAreas: new Set(),
    visitingAreas: new Set(),
    trainingAreas: new Map(),
    staffAreas: new Set(),
    ...overrides,
  };
}

const callsigns = (b: Booker) => positionsOffered(b, ALL).map((p) => p.callsign);

describe('who may book: members', () => {
  const active = persona({ activeAreas: new Set([DENMARK]) });

  it('offers an S2 member active in Denmark the Danish positions up to S2, with the event tag', () => {
    expect(callsigns(active)).toEqual(['EKCH_DEL', 'EKCH_TWR']);
    expect(mayBook(active, EKCH_TWR, null)).toEqual({ ok: true });
    expect(mayBook(active, EKCH_TWR, 3)).toEqual({ ok: true });
    expect(tagsOffered(active, EKCH_TWR)).toEqual([3]);
  });

  it('refuses a position above the rating, and another area, with the reason', () => {
    expect(mayBook(active, EKCH_APP, null)).toEqual({ ok: false, reason: REFUSALS.rating('EKCH_APP', RATINGS.S3, RATINGS.S2) });
    expect(mayBook(active, ESSA_TWR, null)).toEqual({ ok: false, reason: REFUSALS.notInArea('ESSA_TWR') });
    expect(mayBook(active, NOWHERE, null)).toEqual({ ok: false, reason: REFUSALS.noArea('XXXX_TWR') });
  });

  it('refuses the training tag without an open training and the exam tag below C1', () => {
    expect(mayBook(active, EKCH_TWR, 1)).toEqual({ ok: false, reason: REFUSALS.training });
    expect(mayBook(active, EKCH_TWR, 2)).toEqual({ ok: false, reason: REFUSALS.exam });
  });

  it('offers nothing to a member who is not active in any area', () => {
    const inactive = persona();
    expect(callsigns(inactive)).toEqual([]);
    expect(mayBook(inactive, EKCH_DEL, null)).toEqual({ ok: false, reason: REFUSALS.notInArea('EKCH_DEL') });
  });

  it('offers nothing to an OBS, even one marked active', () => {
    expect(callsigns(persona({ rating: RATINGS.OBS, activeAreas: new Set([DENMARK]) }))).toEqual([]);
  });

  it('does not count activity for someone who is not a member', () => {
    expect(callsigns(persona({ member: false, activeAreas: new Set([DENMARK]) }))).toEqual([]);
  });

  it('lets a C1 member book an exam, and not a C1 visitor', () => {
    const c1 = persona({ rating: RATINGS.C1, activeAreas: new Set([DENMARK]) });
    expect(callsigns(c1)).toEqual(['EKCH_DEL', 'EKCH_TWR', 'EKCH_APP', 'EKDK_CTR']);
    expect(mayBook(c1, EKDK_CTR, 2)).toEqual({ ok: true });
    expect(tagsOffered(c1, EKDK_CTR)).toEqual([2, 3]);
    const visitor = persona({ rating: RATINGS.C1, member: false, visitingAreas: new Set([DENMARK]) });
    expect(mayBook(visitor, EKDK_CTR, 2)).toEqual({ ok: false, reason: REFUSALS.exam });
  });
});

describe('who may book: visitors', () => {
  it('offers a visitor with an active endorsement for Denmark its positions up to their rating, with events', () => {
    const visitor = persona({ member: false, visitingAreas: new Set([DENMARK]) });
    expect(callsigns(visitor)).toEqual(['EKCH_DEL', 'EKCH_TWR']);
    expect(mayBook(visitor, EKCH_TWR, 3)).toEqual({ ok: true });
    expect(mayBook(visitor, ESSA_TWR, null)).toEqual({ ok: false, reason: REFUSALS.notInArea('ESSA_TWR') });
  });

  it('offers a visitor without an endorsement nothing', () => {
    const visitor = persona({ member: false });
    expect(callsigns(visitor)).toEqual([]);
    expect(mayBook(visitor, EKCH_DEL, 3)).toEqual({ ok: false, reason: REFUSALS.notInArea('EKCH_DEL') });
  });
});

describe('who may book: trainees', () => {
  const trainee = persona({ rating: RATINGS.S1, trainingAreas: new Map([[DENMARK, RATINGS.S3]]) });

  it("offers the training's area up to the training's highest rating, with the training tag", () => {
    expect(callsigns(trainee)).toEqual(['EKCH_DEL', 'EKCH_TWR', 'EKCH_APP']);
    expect(mayBook(trainee, EKCH_APP, 1)).toEqual({ ok: true });
    // Plain controlling is offered too: rule 7 of the booking rules then forces the training tag.
    expect(mayBook(trainee, EKCH_APP, null)).toEqual({ ok: true });
    expect(tagsOffered(trainee, EKCH_APP)).toEqual([1, 3]);
  });

  it('refuses above the training and outside its area', () => {
    expect(mayBook(trainee, EKDK_CTR, 1)).toEqual({ ok: false, reason: REFUSALS.rating('EKDK_CTR', RATINGS.C1, RATINGS.S3) });
    expect(mayBook(trainee, ESSA_TWR, 1)).toEqual({ ok: false, reason: REFUSALS.notInArea('ESSA_TWR') });
  });

  it('refuses the training tag to an OBS trainee (the rules force it anyway)', () => {
    const obs = persona({ rating: RATINGS.OBS, trainingAreas: new Map([[DENMARK, RATINGS.S1]]) });
    expect(callsigns(obs)).toEqual(['EKCH_DEL']);
    expect(mayBook(obs, EKCH_DEL, 1)).toEqual({ ok: false, reason: REFUSALS.training });
    expect(mayBook(obs, EKCH_DEL, null)).toEqual({ ok: true });
  });

  it("keeps the trainee's own rating when the training names none", () => {
    const plain = persona({ rating: RATINGS.S2, trainingAreas: new Map([[DENMARK, null]]) });
    expect(callsigns(plain)).toEqual(['EKCH_DEL', 'EKCH_TWR']);
  });
});

describe('who may book: staff, and changing bookings', () => {
  const moderator = persona({ rating: RATINGS.S1, member: false, staffAreas: new Set([DENMARK]) });

  it('lets staff book any position of their area with any tag, and nothing elsewhere', () => {
    expect(callsigns(moderator)).toEqual(['EKCH_DEL', 'EKCH_TWR', 'EKCH_APP', 'EKDK_CTR']);
    expect(mayBook(moderator, EKDK_CTR, 2)).toEqual({ ok: true });
    expect(tagsOffered(moderator, EKDK_CTR)).toEqual([1, 2, 3]);
    expect(mayBook(moderator, ESSA_TWR, null)).toEqual({ ok: false, reason: REFUSALS.notInArea('ESSA_TWR') });
  });

  it("lets staff change anyone's booking in their area, not elsewhere", () => {
    expect(mayChange(moderator, { user_id: 1000002, area_id: DENMARK })).toEqual({ ok: true });
    expect(mayChange(moderator, { user_id: 1000002, area_id: SWEDEN })).toEqual({ ok: false, reason: REFUSALS.notOwner });
  });

  it('lets a member change their own bookings only', () => {
    const member = persona({ activeAreas: new Set([DENMARK]) });
    expect(mayChange(member, { user_id: member.cid, area_id: DENMARK })).toEqual({ ok: true });
    expect(mayChange(member, { user_id: 1000002, area_id: DENMARK })).toEqual({ ok: false, reason: REFUSALS.notOwner });
  });
});

describe('who may book: suspended and inactive accounts', () => {
  it('refuses a suspended or inactive account every position and every change, staff roles and trainings included', () => {
    for (const rating of [RATINGS.SUS, RATINGS.INA]) {
      const barred = persona({
        rating,
        activeAreas: new Set([DENMARK]),
        visitingAreas: new Set([DENMARK]),
        trainingAreas: new Map([[DENMARK, RATINGS.S3]]),
        staffAreas: new Set([DENMARK]),
      });
      expect(callsigns(barred)).toEqual([]);
      expect(mayBook(barred, EKCH_DEL, null)).toEqual({ ok: false, reason: REFUSALS.barred });
      expect(mayChange(barred, { user_id: barred.cid, area_id: DENMARK })).toEqual({ ok: false, reason: REFUSALS.barred });
      expect(mayChange(barred, { user_id: 1000002, area_id: DENMARK })).toEqual({ ok: false, reason: REFUSALS.barred });
    }
  });
});

describe("who may book: staff putting another member's booking on a position", () => {
  const owner = persona({ cid: 1000002, activeAreas: new Set([DENMARK]) });
  const danishStaff = persona({ rating: RATINGS.S3, activeAreas: new Set([DENMARK, SWEDEN]), staffAreas: new Set([DENMARK]) });
  const nordicStaff = persona({ rating: RATINGS.S1, member: false, staffAreas: new Set([DENMARK, SWEDEN]) });

  it("refuses a position outside the staff member's areas, even one they may book themselves", () => {
    expect(mayBook(danishStaff, ESSA_TWR, null)).toEqual({ ok: true });
    expect(mayBookFor(danishStaff, owner, ESSA_TWR, null)).toEqual({ ok: false, reason: REFUSALS.notStaffThere('ESSA_TWR') });
  });

  it("refuses a position the booking's member may not book, in an area the staff member is staff of", () => {
    expect(mayBookFor(nordicStaff, owner, ESSA_TWR, null)).toEqual({ ok: false, reason: REFUSALS.notForOwner('ESSA_TWR') });
    expect(mayBookFor(nordicStaff, owner, EKCH_APP, null)).toEqual({ ok: false, reason: REFUSALS.notForOwner('EKCH_APP') });
    expect(
      mayBookFor(nordicStaff, persona({ cid: 1000002, rating: RATINGS.SUS, activeAreas: new Set([DENMARK]) }), EKCH_DEL, null),
    ).toEqual({
      ok: false,
      reason: REFUSALS.notForOwner('EKCH_DEL'),
    });
  });

  it("allows a position the member may book, in the staff member's area, with any tag", () => {
    expect(mayBookFor(danishStaff, owner, EKCH_TWR, 2)).toEqual({ ok: true });
    expect(mayBookFor(nordicStaff, owner, EKCH_DEL, 1)).toEqual({ ok: true });
  });
});
