// Booking flags: what a tag sets, and when training is forced whatever the tag says.

/** 1 training, 2 exam, 3 event. */
export type Tag = 1 | 2 | 3;

export interface BookingFlags {
  training: number;
  exam: number;
  event: number;
}

/** Stored flags, with whether training was forced rather than chosen. */
export interface StoredFlags extends BookingFlags {
  training_forced: number;
}

export function flagsForTag(tag: Tag | null): BookingFlags {
  return { training: tag === 1 ? 1 : 0, exam: tag === 2 ? 1 : 0, event: tag === 3 ? 1 : 0 };
}

import { type EndorsementPeriod, isActiveEndorsement } from '../../endorsements/domain.js';

export { type EndorsementPeriod, isActiveEndorsement };

export interface TrainingCheck {
  userRating: number;
  positionRating: number;
  /** The facility endorsement the position requires, if any. */
  requiredFacility: string | null;
  /** The user's facility endorsements for that facility, in any state. */
  facilityEndorsements: EndorsementPeriod[];
  now: number;
}

/**
 * A user below the position's rating, or without an active endorsement for the facility the
 * position requires, may only book it as training.
 */
export function mustForceTraining(c: TrainingCheck): boolean {
  if (c.userRating < c.positionRating) return true;
  if (c.requiredFacility === null) return false;
  return !c.facilityEndorsements.some((e) => isActiveEndorsement(e, c.now));
}

/** The flags the booker chose: a stored booking's, less any training that was only forced. */
export function chosenFlags(stored: StoredFlags): BookingFlags {
  return { training: stored.training_forced ? 0 : stored.training, exam: stored.exam, event: stored.event };
}

/**
 * The flags to store: the chosen ones (the tag's, or on an update without a tag the stored
 * choice), training forced on top, remembering when it was forced so a later update can lift it.
 */
export function resolveFlags(chosen: BookingFlags, forcedTraining: boolean): StoredFlags {
  const forced = forcedTraining && chosen.training === 0;
  return { ...chosen, training: forced ? 1 : chosen.training, training_forced: forced ? 1 : 0 };
}
