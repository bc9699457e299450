import type { Db } from '../db/connection.js';
import { writeTransaction } from '../db/transaction.js';
import { parseImport } from '../import/parse.js';
import { applyImport, hasDivisionData, holdsDivisionDataLocked, type ImportSummary } from '../repositories/importer.js';

export { ImportError } from '../import/parse.js';
export type { ImportSummary };

/** The import was to fill an empty database, and it holds users or bookings: nothing was imported. */
export class DatabaseNotEmptyError extends Error {
  constructor() {
    super('the database already holds users or bookings');
  }
}

export interface ImportOptions {
  /** Import only into a database without users and bookings, checked in the import's own transaction. */
  intoEmptyDatabase?: boolean;
}

/** Validates and applies an import file's content in one transaction: all of it or nothing. */
export async function runImport(db: Db, data: unknown, now: number, options: ImportOptions = {}): Promise<ImportSummary> {
  const plan = parseImport(data);
  return writeTransaction(db, async (trx) => {
    if (options.intoEmptyDatabase && (await holdsDivisionDataLocked(trx, db.dialect))) throw new DatabaseNotEmptyError();
    return applyImport(trx, db.dialect, plan, now);
  });
}

/** True when the database already holds users or bookings (a demo must not be mixed into real data). */
export function holdsDivisionData(db: Db): Promise<boolean> {
  return hasDivisionData(db.kysely);
}
