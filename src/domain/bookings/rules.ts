// The booking rules that follow the field formats (contract §5, rules 1–4, 6 and 7), decided
// from data the caller loaded. Overlap (rule 5) needs the other bookings and is checked by
// the caller in the same transaction as the write.
import { chosenFlags, type EndorsementPeriod, flagsForTag, mustForceTraining, resolveFlags, type StoredFlags } from './flags.js';
import type { BookingFields, FieldErrors } from './input.js';
import { dateOf, minutesOf, type Period, periodOn } from './period.js';

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
 * The period after applying the given date and times to the stored ones. Without any of the
 * three, the stored period is kept exactly (imported bookings may carry seconds).
 */
export function schedule(fields: BookingFields, existing: Period | null): Period | null {
  if (existing && fields.date === undefined && fields.start_at === undefined && fields.end_at === undefined) return existing;
  const date = fields.date ?? dateOf(existing!.start);
  const start = fields.start_at ?? minutesOf(existing!.start);
  const end = fields.end_at ?? minutesOf(existing!.end);
  return periodOn(date, start, end);
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

