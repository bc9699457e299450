import type { Db } from '../db/connection.js';
import { writeTransaction } from '../db/transaction.js';
import { applyImport, holdsDivisionDataLocked, type ImportSummary } from '../repositories/importer.js';
import type { ImportedBooking } from '../repositories/importBookings.js';
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
  /** Runs in the import's transaction with the bookings it created or changed (their events). */
  onBookings?: (trx: Parameters<Parameters<typeof writeTransaction>[1]>[0], bookings: ImportedBooking[]) => Promise<void>;
  /** Runs after the commit (wakes whatever delivers what onBookings recorded). */
  onCommitted?: () => void;
}

/** Validates and applies an import file's content in one transaction: all of it or nothing. */
export async function runImport(db: Db, data: unknown, now: number, options: ImportOptions = {}): Promise<ImportSummary> {
  const plan = parseImport(data);
  const summary = await writeTransaction(db, async (trx) => {
    if (options.intoEmptyDatabase && (await holdsDivisionDataLocked(trx, db.dialect))) throw new DatabaseNotEmptyError();
    const outcome = await applyImport(trx, db.dialect, plan, now);
    await options.onBookings?.(trx, outcome.bookings);
    return outcome.summary;
  });
  options.onCommitted?.();
  return summary;
}
