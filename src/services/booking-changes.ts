import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { BookingView } from '../repositories/bookings.js';
import type { ImportedBooking } from '../repositories/importBookings.js';

/** Who made a change: an API key, or an operator at the command line. */
export type Actor = { kind: 'key'; keyId: string; keyName: string } | { kind: 'cli' };

export type BookingChangeKind = 'created' | 'updated' | 'deleted';

/** One booking as a committed change leaves it, and as it was before (null for a creation). */
export interface BookingChange {
  kind: BookingChangeKind;
  before: BookingView | null;
  after: BookingView;
}

export interface ChangeContext {
  actor: Actor;
  /** Imports publish events but are not pushed to the network. */
  origin: 'api' | 'import';
  /** Unix milliseconds of the change, as written to the booking. */
  at: number;
}

/**
 * Something that must happen because bookings changed (an event, an audit entry, a network push).
 * `record` runs inside the change's own transaction, so it commits or rolls back with it;
 * `committed` runs after the commit, to wake whatever delivers the recorded work.
 */
export interface BookingChangeRecorder {
  record(trx: Kysely<Database>, changes: BookingChange[], context: ChangeContext): Promise<void>;
  committed?(): void;
}

/** Runs every recorder over the changes of one transaction (nothing to do for none). */
export async function recordChanges(
  recorders: readonly BookingChangeRecorder[],
  trx: Kysely<Database>,
  changes: BookingChange[],
  context: ChangeContext,
): Promise<void> {
  if (changes.length === 0) return;
  for (const recorder of recorders) await recorder.record(trx, changes, context);
}

/** After the commit: lets each recorder wake its deliverer. */
export function notifyCommitted(recorders: readonly BookingChangeRecorder[]): void {
  for (const recorder of recorders) recorder.committed?.();
}

/** Created, or changed: deleted when the import deletes a live booking. */
export function importChanges(bookings: ImportedBooking[]): BookingChange[] {
  return bookings.map(({ before, after }) => ({
    kind: before === null ? 'created' : after.deleted === 1 && before.deleted === 0 ? 'deleted' : 'updated',
    before,
    after,
  }));
}

/**
 * What an import (runImport's options) does with the bookings it creates or changes: records them
 * in its transaction as changes by the command line, set-based, and wakes the deliverers after.
 */
export function importRecording(recorders: readonly BookingChangeRecorder[], at: number) {
  return {
    onBookings: (trx: Kysely<Database>, bookings: ImportedBooking[]) =>
      recordChanges(recorders, trx, importChanges(bookings), { actor: { kind: 'cli' }, origin: 'import', at }),
    onCommitted: () => notifyCommitted(recorders),
  };
}
