// Audit entries: who changed what, and which fields changed. Pure: no database access.
import { ymdHis } from '../../../core/domain/time.js';

export { type AuditActor, type AuditEntry, type Fields, actorColumns } from '../../../core/domain/audit.js';
import type { Fields } from '../../../core/domain/audit.js';

export const bookingTarget = (id: number): string => `booking:${id}`;
export const apiKeyTarget = (id: string): string => `apikey:${id}`;
export const webhookTarget = (id: string): string => `webhook:${id}`;
export const userTarget = (cid: number): string => `user:${cid}`;
export const endorsementTarget = (id: number): string => `endorsement:${id}`;
export const positionTarget = (callsign: string): string => `position:${callsign}`;
export const trainingTarget = (id: number): string => `training:${id}`;

/**
 * An actor as a filter names it (`--actor`, the audit page): a CID alone is that member; otherwise
 * the stored form, `member:<cid>`, `key:<id>`, `cli`, `roster` or `system`. Null: not an actor.
 */
export function actorFilter(text: string): string | null {
  const t = text.trim();
  if (/^\d{1,10}$/.test(t)) return `member:${Number(t)}`;
  if (/^member:\d{1,10}$/.test(t)) return `member:${Number(t.slice(7))}`;
  if (/^key:[A-Za-z0-9_-]{1,100}$/.test(t)) return t;
  return ['cli', 'roster', 'system'].includes(t) ? t : null;
}

/** A record's change as an entry shows it: a creation every field after, otherwise the fields that differ. */
export function changedFields(before: Fields | null, after: Fields | null): { before: Fields | null; after: Fields | null } {
  if (before === null || after === null) return { before, after };
  const changed = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
  return {
    before: Object.fromEntries(changed.map((k) => [k, before[k]])),
    after: Object.fromEntries(changed.map((k) => [k, after[k]])),
  };
}

/** A booking's stored columns an audit entry shows (bookkeeping columns id/created_at/updated_at left out). */
export interface AuditedBooking {
  user_id: number;
  /** Shown instead of position_id: ids mean nothing to a reader. */
  callsign: string;
  time_start: number;
  time_end: number;
  training: number;
  training_forced: number;
  exam: number;
  event: number;
  source: string;
  network_booking: string | null;
  deleted: number;
}

const BOOKING_FIELDS = [
  'user_id',
  'callsign',
  'time_start',
  'time_end',
  'training',
  'training_forced',
  'exam',
  'event',
  'source',
  'network_booking',
  'deleted',
] as const satisfies ReadonlyArray<keyof AuditedBooking>;

/** Booking times as the API shows them; the rest as stored. */
function shown(field: keyof AuditedBooking, value: unknown): unknown {
  return (field === 'time_start' || field === 'time_end') && typeof value === 'number' ? ymdHis(value) : value;
}

function pick(booking: AuditedBooking, fields: readonly (keyof AuditedBooking)[]): Fields {
  return Object.fromEntries(fields.map((f) => [f, shown(f, booking[f])]));
}

/**
 * The before/after of a booking change: a creation shows every field after, a deletion every field
 * before (and deleted after), an update only the fields that differ. Null when nothing changed.
 */
export function bookingDiff(before: AuditedBooking | null, after: AuditedBooking): { before: Fields | null; after: Fields | null } | null {
  if (before === null) return { before: null, after: pick(after, BOOKING_FIELDS) };
  if (before.deleted === 0 && after.deleted === 1) {
    return { before: pick(before, BOOKING_FIELDS), after: { deleted: 1 } };
  }
  const changed = BOOKING_FIELDS.filter((f) => before[f] !== after[f]);
  if (changed.length === 0) return null;
  return { before: pick(before, changed), after: pick(after, changed) };
}

/** The action of a booking change. */
export function bookingAction(before: AuditedBooking | null, after: AuditedBooking): string {
  if (before === null) return 'booking.created';
  if (before.deleted === 0 && after.deleted === 1) return 'booking.deleted';
  return 'booking.updated';
}

/** Stands for an e-mail address in a user's audit entry: the log holds no addresses (as at sign-in). */
export const EMAIL_NOT_RECORDED = '(not recorded)';

/** A user change's fields with the e-mail address replaced by EMAIL_NOT_RECORDED (null stays null): never the address itself. */
export function withoutEmailAddress(fields: Fields | null): Fields | null {
  if (fields === null || fields.email === undefined || fields.email === null) return fields;
  return { ...fields, email: EMAIL_NOT_RECORDED };
}

/** A user's fields a sign-in audit entry shows (the e-mail address is left out of the log). */
export interface AuditedProfile {
  first_name: string | null;
  last_name: string | null;
  rating: number;
  region: string | null;
  division: string | null;
  subdivision: string | null;
}

const PROFILE_FIELDS = ['first_name', 'last_name', 'rating', 'region', 'division', 'subdivision'] as const satisfies ReadonlyArray<
  keyof AuditedProfile
>;

/** A sign-in: every field for a new user, the fields the network changed for a known one. */
export function signInDiff(before: AuditedProfile | undefined, after: AuditedProfile): { before: Fields | null; after: Fields | null } {
  if (before === undefined) return { before: null, after: Object.fromEntries(PROFILE_FIELDS.map((f) => [f, after[f]])) };
  const changed = PROFILE_FIELDS.filter((f) => before[f] !== after[f]);
  if (changed.length === 0) return { before: null, after: null };
  return {
    before: Object.fromEntries(changed.map((f) => [f, before[f]])),
    after: Object.fromEntries(changed.map((f) => [f, after[f]])),
  };
}
