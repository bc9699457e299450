import type { AuditActor } from '../audit/domain/index.js';
import type { BookingView } from './bookings.repository.js';

/** Who made a change: an API key, or an operator at the command line (as the audit log records it). */
export type Actor = AuditActor;

export type BookingChangeKind = 'created' | 'updated' | 'deleted';

/** One booking as a committed change leaves it, and as it was before (null for a creation). */
export interface BookingChange {
  kind: BookingChangeKind;
  before: BookingView | null;
  after: BookingView;
}

/** A booking as an import found it and as it left it (before: null when the import created it). */
export interface ImportedBooking {
  before: BookingView | null;
  after: BookingView;
}

/** Created, or changed: deleted when the import deletes a live booking. */
export function importChanges(bookings: ImportedBooking[]): BookingChange[] {
  return bookings.map(({ before, after }) => ({
    kind: before === null ? 'created' : after.deleted === 1 && before.deleted === 0 ? 'deleted' : 'updated',
    before,
    after,
  }));
}
