import type { Db } from '../db/connection.js';
import { writeTransaction } from '../db/transaction.js';
import { applyImport, holdsDivisionDataLocked, type ImportSummary } from '../repositories/importer.js';
import type { ImportedBooking } from '../repositories/importBookings.js';
import { type BookingChange, type BookingChangeRecorder, notifyCommitted, recordChanges } from '../services/booking-changes.js';
import { parseImport } from './parse.js';

export { ImportError } from './parse.js';
export type { ImportSummary };

/** The database was to be filled empty, and it holds users or bookings: nothing was imported. */
export class DatabaseNotEmptyError extends Error {
  constructor() {
    super('the database already holds users or bookings');
  }
}

export interface ImportOptions {
  /** Import only into a database without users and bookings, checked in the import's own transaction. */
  intoEmptyDatabase?: boolean;
  /** What the bookings it creates or changes must also cause (events), in the import's transaction. */
  recorders?: readonly BookingChangeRecorder[];
}

/** Created, or changed: deleted when the import deletes a live booking. */
export function importChanges(bookings: ImportedBooking[]): BookingChange[] {
  return bookings.map(({ before, after }) => ({
    kind: before === null ? 'created' : after.deleted === 1 && before.deleted === 0 ? 'deleted' : 'updated',
    before,
    after,
  }));
}

/** Validates and applies an import file's content in one transaction: all of it or nothing. */
export async function runImport(db: Db, data: unknown, now: number, options: ImportOptions = {}): Promise<ImportSummary> {
  const plan = parseImport(data);
  const recorders = options.recorders ?? [];
  const summary = await writeTransaction(db, async (trx) => {
    if (options.intoEmptyDatabase && (await holdsDivisionDataLocked(trx, db.dialect))) throw new DatabaseNotEmptyError();
    const outcome = await applyImport(trx, db.dialect, plan, now);
    await recordChanges(recorders, trx, importChanges(outcome.bookings), { actor: { kind: 'cli' }, origin: 'import', at: now });
    return outcome.summary;
  });
  notifyCommitted(recorders);
  return summary;
}
