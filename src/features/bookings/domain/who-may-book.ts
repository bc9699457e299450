// Who may book which position with which tag, and who may change a booking (docs/booking-pages.md):
// Control Center's booking policy, decided from what the caller loaded about the member. Members'
// pages apply it on top of the booking rules; the API does not (its keys are trusted integrations).
import type { Decision } from '../../../core/domain/errors.js';
import { RATINGS, ratingCode } from '../../members/domain/ratings.js';
import type { Tag } from './flags.js';

/** Roles that may book any position of their area with any tag, and change anyone's booking there. */
export const STAFF_ROLES: readonly string[] = ['Administrator', 'Moderator'];

/** A training counts for booking from this status on (pre-training, active, awaiting exam). */
export const BOOKING_TRAINING_MIN_STATUS = 1;

/** What the policy needs to know about the person booking. Areas are identified by id. */
export interface Booker {
  cid: number;
  /** Numeric rating (features/members/domain/ratings.ts). */
  rating: number;
  /** A member of the division (membership as the users list counts it). */
  member: boolean;
  /** Areas the member is ATC-active in. */
  activeAreas: ReadonlySet<number>;
  /** Areas of the user's active visiting endorsements. */
  visitingAreas: ReadonlySet<number>;
  /** Areas with an open training (status >= 1) -> the highest rating those trainings are for (null: none given). */
  trainingAreas: ReadonlyMap<number, number | null>;
  /** Areas where the user is Administrator or Moderator. */
  staffAreas: ReadonlySet<number>;
}

export interface BookablePosition {
  callsign: string;
  area_id: number | null;
  /** Minimum rating value to control it without a training tag. */
  rating: number;
}

/** A booking someone wants to change: whose it is and where. */
export interface OwnedBooking {
  user_id: number;
  area_id: number | null;
}

export type { Decision };

const ALLOWED: Decision = { ok: true };
const refused = (reason: string): Decision => ({ ok: false, reason });

export const TAG_NAMES: Readonly<Record<Tag, string>> = { 1: 'Training', 2: 'Exam', 3: 'Event' };
const ALL_TAGS: readonly Tag[] = [1, 2, 3];

const ratingName = (value: number): string => {
  try {
    return ratingCode(value);
  } catch {
    return String(value);
  }
};

export const REFUSALS = {
  noArea: (callsign: string) => `${callsign} belongs to no area, so it cannot be booked here.`,
  notInArea: (callsign: string) =>
    `You may book ${callsign} only as a member with rating S1 or above who is active in its area, with a visiting endorsement for its area, or with an open training there.`,
  rating: (callsign: string, needed: number, allowed: number) =>
    `${callsign} needs rating ${ratingName(needed)}; you may book positions up to ${ratingName(allowed)}.`,
  training: 'The Training type needs rating S1 or above and an open training in the position’s area.',
  exam: 'The Exam type needs a member with rating C1 or above.',
  event: 'The Event type needs rating S1 or above, as a member or a visitor of the position’s area.',
  notOwner: 'You may change or cancel only your own bookings.',
  notStaffThere: (callsign: string) => `You are not staff of the area of ${callsign}, so you may not put another member’s booking there.`,
  notForOwner: (callsign: string) => `The member whose booking this is may not book ${callsign}, so it cannot be put there.`,
  barred: 'Your network account is suspended or inactive, so you may not book or change bookings.',
} as const;

const isStaffIn = (b: Booker, area: number): boolean => b.staffAreas.has(area);
/** Suspended and inactive accounts may not sign in (contract §14), so they book nothing, whatever else they hold. */
const isBarred = (b: Booker): boolean => b.rating <= RATINGS.SUS;

/**
 * The highest position rating the booker may book in an area, or null: members active there and
 * visitors up to their rating, trainees up to their training's. Staff are not limited (mayBookPosition).
 */
function ratingLimit(b: Booker, area: number): number | null {
  let limit: number | null = null;
  if ((b.member && b.rating >= RATINGS.S1 && b.activeAreas.has(area)) || b.visitingAreas.has(area)) limit = b.rating;
  if (b.trainingAreas.has(area)) limit = Math.max(limit ?? b.rating, b.trainingAreas.get(area) ?? b.rating);
  return limit;
}

/** Whether the booker may book the position at all (any tag). */
export function mayBookPosition(b: Booker, p: BookablePosition): Decision {
  if (isBarred(b)) return refused(REFUSALS.barred);
  if (p.area_id === null) return refused(REFUSALS.noArea(p.callsign));
  if (isStaffIn(b, p.area_id)) return ALLOWED;
  const limit = ratingLimit(b, p.area_id);
  if (limit === null) return refused(REFUSALS.notInArea(p.callsign));
  if (p.rating > limit) return refused(REFUSALS.rating(p.callsign, p.rating, limit));
  return ALLOWED;
}

/** Whether the booker may use a tag on the position (null: plain controlling, always fine). */
export function mayUseTag(b: Booker, p: BookablePosition, tag: Tag | null): Decision {
  if (tag === null) return ALLOWED;
  if (p.area_id !== null && isStaffIn(b, p.area_id)) return ALLOWED;
  const s1 = b.rating >= RATINGS.S1;
  switch (tag) {
    case 1:
      return s1 && p.area_id !== null && b.trainingAreas.has(p.area_id) ? ALLOWED : refused(REFUSALS.training);
    case 2:
      return b.member && b.rating >= RATINGS.C1 ? ALLOWED : refused(REFUSALS.exam);
    case 3:
      return s1 && (b.member || (p.area_id !== null && b.visitingAreas.has(p.area_id))) ? ALLOWED : refused(REFUSALS.event);
  }
}

/** The decision for booking a position with a tag: the position first, then the tag. */
export function mayBook(b: Booker, p: BookablePosition, tag: Tag | null): Decision {
  const position = mayBookPosition(b, p);
  return position.ok ? mayUseTag(b, p, tag) : position;
}

/** Whether the booker may edit or cancel a booking: their own, or any in an area they are staff of. */
export function mayChange(b: Booker, booking: OwnedBooking): Decision {
  if (isBarred(b)) return refused(REFUSALS.barred);
  if (booking.user_id === b.cid) return ALLOWED;
  if (booking.area_id !== null && isStaffIn(b, booking.area_id)) return ALLOWED;
  return refused(REFUSALS.notOwner);
}

/** Booking for another member needs staff rights in the area, and a position that member may book. */
export function mayBookFor(b: Booker, owner: Booker, p: BookablePosition, tag: Tag | null): Decision {
  if (isBarred(b)) return refused(REFUSALS.barred);
  if (p.area_id === null) return refused(REFUSALS.noArea(p.callsign));
  if (!isStaffIn(b, p.area_id)) return refused(REFUSALS.notStaffThere(p.callsign));
  if (!mayBookPosition(owner, p).ok) return refused(REFUSALS.notForOwner(p.callsign));
  return mayUseTag(b, p, tag);
}

/** The positions offered to the booker, in the given order. */
export function positionsOffered<P extends BookablePosition>(b: Booker, positions: readonly P[]): P[] {
  return positions.filter((p) => mayBookPosition(b, p).ok);
}

/** The tags the booker may choose on a position (besides plain controlling). */
export function tagsOffered(b: Booker, p: BookablePosition): Tag[] {
  return ALL_TAGS.filter((t) => mayUseTag(b, p, t).ok);
}
