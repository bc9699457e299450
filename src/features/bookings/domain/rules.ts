// The booking rules that follow the field formats (docs/api.md, booking rules), decided
// from data the caller loaded. Overlap (rule 5) needs the other bookings and is checked by
// the caller in the same transaction as the write.
import { chosenFlags, type EndorsementPeriod, flagsForTag, mustForceTraining, resolveFlags, type StoredFlags } from './flags.js';
import type { FieldErrors } from '../../../core/domain/errors.js';
import type { BookingFields } from './input.js';
import { dateOf, midnightOf, type Period, periodFrom, periodOn, timeOfDay, wholeDaysOf } from './period.js';

const MINUTE = 60_000;

export const RULE_MESSAGES = {
  unknownUser: (cid: number) => `No user with CID ${cid} exists.`,
  unknownPosition: (callsign: string) => `No position with callsign ${callsign} exists.`,
  sameStartEnd: 'Start and end time cannot be the same',
  startInPast: 'Start time cannot be in the past',
  beyondYear9999: 'The booking must end before the year 10000.',
} as const;

// Booking times are shown as Y-m-d H:i:s: four year digits, so nothing may end later than this.
const END_OF_TIME = Date.UTC(10000, 0, 1);

export interface StoredBooking extends StoredFlags {
  user_id: number;
  position_id: number;
  time_start: number;
  time_end: number;
}

export interface PlanContext {
  fields: BookingFields;
  /** The booking being updated; null on create. */
  existing: StoredBooking | null;
  /** The booker (fields.cid, else the stored one); null when no such user exists. */
  user: { id: number; rating: number } | null;
  /** The position (fields.position, else the stored one); null when no such position exists. */
  position: { id: number; rating: number; required_facility: string | null } | null;
  /** The user's endorsements for the position's required facility, in any state. */
  facilityEndorsements: EndorsementPeriod[];
  now: number;
}

export interface PlannedBooking extends StoredFlags {
  user_id: number;
  position_id: number;
  time_start: number;
  time_end: number;
}

export type Plan = { ok: true; booking: PlannedBooking; forcedTraining: boolean } | { ok: false; errors: FieldErrors };

/**
 * The period after applying the given date and times (docs/api.md, PATCH). What is not given keeps its
 * stored time of day (imports may carry seconds); the end follows rule 3, and a booking of a day or
 * more keeps its whole days.
 */
export function schedule(fields: BookingFields, existing: Period | null): Period | null {
  if (existing === null) return periodOn(fields.date!, fields.start_at!, fields.end_at!);
  if (fields.date === undefined && fields.start_at === undefined && fields.end_at === undefined) return existing;
  const day = midnightOf(fields.date ?? dateOf(existing.start));
  const start = day + (fields.start_at !== undefined ? fields.start_at * MINUTE : timeOfDay(existing.start));
  const endTime = fields.end_at !== undefined ? fields.end_at * MINUTE : timeOfDay(existing.end);
  return periodFrom(start, endTime, wholeDaysOf(existing));
}

export function planBooking(c: PlanContext): Plan {
  const { fields, existing } = c;

  const unknown: FieldErrors = {};
  if (c.user === null) unknown.cid = [RULE_MESSAGES.unknownUser(fields.cid ?? existing?.user_id ?? 0)];
  if (c.position === null) unknown.position = [RULE_MESSAGES.unknownPosition(fields.position ?? '')];
  if (c.user === null || c.position === null) return { ok: false, errors: unknown };

  const stored = existing ? { start: existing.time_start, end: existing.time_end } : null;
  const period = schedule(fields, stored);
  if (period === null) return { ok: false, errors: { end_at: [RULE_MESSAGES.sameStartEnd] } };
  if (period.end >= END_OF_TIME) return { ok: false, errors: { date: [RULE_MESSAGES.beyondYear9999] } };

  // An ongoing booking may still be extended or retagged; only a new start must lie ahead.
  const startChanged = stored === null || period.start !== stored.start;
  if (startChanged && period.start < c.now) return { ok: false, errors: { start_at: [RULE_MESSAGES.startInPast] } };

  // Forcing is decided again for the (new) booker and position; the choice carries over.
  const chosen = fields.tag !== undefined || existing === null ? flagsForTag(fields.tag ?? null) : chosenFlags(existing);
  const forcedTraining = mustForceTraining({
    userRating: c.user.rating,
    positionRating: c.position.rating,
    requiredFacility: c.position.required_facility,
    facilityEndorsements: c.facilityEndorsements,
    now: c.now,
  });
  return {
    ok: true,
    forcedTraining,
    booking: {
      user_id: c.user.id,
      position_id: c.position.id,
      time_start: period.start,
      time_end: period.end,
      ...resolveFlags(chosen, forcedTraining),
    },
  };
}

/**
 * True when an update would leave the booking as it is (contract §8), compared on planned values, so
 * any spelling of the stored value counts as no change. Forced versus chosen training is not compared.
 */
export function changesNothing(existing: StoredBooking, planned: PlannedBooking): boolean {
  return (
    planned.user_id === existing.user_id &&
    planned.position_id === existing.position_id &&
    planned.time_start === existing.time_start &&
    planned.time_end === existing.time_end &&
    planned.training === existing.training &&
    planned.exam === existing.exam &&
    planned.event === existing.event
  );
}
