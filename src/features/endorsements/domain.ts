// The one rule for when an endorsement counts now; the SQL form of it is
// activeEndorsement() in src/core/db/predicates.ts, and the two must agree.
import type { FieldErrors } from '../../core/domain/errors.js';
import { RATINGS, ratingValue } from '../members/domain/ratings.js';

export interface EndorsementPeriod {
  valid_from: number;
  valid_to: number | null;
  /** 0/1 as stored, or a boolean. */
  revoked: number | boolean;
}

/** Active: not revoked, already started, and open-ended or not yet ended (docs/api.md). */
export function isActiveEndorsement(e: EndorsementPeriod, now: number): boolean {
  return !e.revoked && e.valid_from <= now && (e.valid_to === null || e.valid_to > now);
}

// Issuing, shortening and revoking (contract §17): the rules staff rely on, checked on what the
// service loaded. Field names are the API's, so a refusal is a 422 with `errors` per field.

export const ISSUED_TYPES = ['facility', 'visiting', 'examiner', 'solo'] as const;
export type IssuedType = (typeof ISSUED_TYPES)[number];
export const isIssuedType = (text: string): text is IssuedType => (ISSUED_TYPES as readonly string[]).includes(text);

export const SOLO_MAX_MS = 30 * 24 * 60 * 60 * 1000;
/** A solo needs an open training at least this far along (pre-training, active, awaiting exam). */
export const SOLO_TRAINING_MIN_STATUS = 1;

/** What is asked for, names as given (areas, callsigns), times as epoch milliseconds. */
export interface EndorsementRequest {
  type: string;
  rating: string | null;
  areas: readonly string[];
  positions: readonly string[];
  valid_from: number;
  valid_to: number | null;
}

/** What the rules check the request against, loaded by the service in the write's transaction. */
export interface IssueFacts {
  now: number;
  /** Area names, as stored. */
  areas: ReadonlySet<string>;
  /** Position callsign -> its area name (null: none). */
  positions: ReadonlyMap<string, string | null>;
  /** Names some position requires (`required_facility`). */
  facilityNames: ReadonlySet<string>;
  /** Areas (names) where the user has an open training with status >= 1. */
  trainingAreas: ReadonlySet<string>;
}

const EXAMINER_MIN = RATINGS.S2;
const RATED_MAX = RATINGS.C3;

/** The rule failures of an issue, per field; empty when it may be issued (conflicts are checked apart). */
export function issueProblems(req: EndorsementRequest, facts: IssueFacts): FieldErrors {
  const errors: FieldErrors = {};
  const add = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (req.type === 's1') add('type', 'S1 endorsements are kept for history and cannot be issued.');
  else if (!isIssuedType(req.type)) add('type', `The type field must be one of: ${ISSUED_TYPES.join(', ')}.`);
  const type = req.type;

  const rating = req.rating;
  if (type === 'facility') {
    if (rating === null) add('rating', 'A facility endorsement needs a rating: the facility name a position requires.');
    else if (!facts.facilityNames.has(rating)) add('rating', `No position requires the facility "${rating}".`);
  } else if (type === 'visiting' || type === 'examiner') {
    const min = type === 'examiner' ? EXAMINER_MIN : RATINGS.S1;
    const value = rating === null ? undefined : ratingValue(rating);
    if (value === undefined || value < min || value > RATED_MAX) {
      add('rating', `A ${type} endorsement needs a rating from ${type === 'examiner' ? 'S2' : 'S1'} to C3.`);
    }
  } else if (type === 'solo' && rating !== null) add('rating', 'A solo endorsement has no rating; it names its position.');

  if (type === 'visiting' || type === 'examiner') {
    if (req.areas.length === 0) add('areas', `A ${type} endorsement needs at least one area.`);
    for (const a of req.areas) if (!facts.areas.has(a)) add('areas', `There is no area named "${a}".`);
  } else if (req.areas.length > 0 && isIssuedType(type)) add('areas', `A ${type} endorsement has no areas.`);

  if (type === 'solo') {
    if (req.positions.length !== 1) add('positions', 'A solo endorsement names exactly one position.');
    else {
      const callsign = req.positions[0]!;
      const area = facts.positions.get(callsign);
      if (area === undefined) add('positions', `There is no position ${callsign}.`);
      else if (area === null) add('positions', `${callsign} belongs to no area, so no training covers it.`);
      else if (!facts.trainingAreas.has(area)) {
        add('positions', `A solo on ${callsign} needs an open training in ${area} (pre-training or later).`);
      }
    }
  } else if (req.positions.length > 0 && isIssuedType(type)) add('positions', `A ${type} endorsement has no positions.`);

  periodProblems(req, facts.now, add);
  return errors;
}

function periodProblems(req: EndorsementRequest, now: number, add: (field: string, message: string) => void): void {
  if (req.valid_to === null) {
    if (req.type === 'solo') add('valid_to', 'A solo endorsement needs an end (valid_to), at most 30 days after it starts.');
    return;
  }
  if (req.valid_to <= req.valid_from) add('valid_to', 'The valid_to field must be after valid_from.');
  else if (req.valid_to <= now) add('valid_to', 'The valid_to field must be in the future.');
  else if (req.type === 'solo' && req.valid_to - req.valid_from > SOLO_MAX_MS) {
    add('valid_to', 'A solo endorsement lasts at most 30 days after it starts.');
  }
}

/** Why an endorsement cannot end at `validTo` instead (shortening; a solo is never extended), or null. */
export function newEndProblem(
  e: { type: string; valid_from: number; valid_to: number | null },
  validTo: number | null,
  now: number,
): string | null {
  if (e.type === 's1') return 'S1 endorsements are kept for history and cannot be changed.';
  if (validTo === null) return e.type === 'solo' ? 'A solo endorsement may be shortened, never extended.' : null;
  if (validTo <= now) return 'The valid_to field must be in the future; revoke the endorsement to end it now.';
  if (validTo <= e.valid_from) return 'The valid_to field must be after valid_from.';
  if (e.type === 'solo' && (e.valid_to === null || validTo > e.valid_to)) return 'A solo endorsement may be shortened, never extended.';
  return null;
}
