import type { Db } from '../db/connection.js';
import { writeTransaction } from '../db/transaction.js';
import { applyImport, holdsDivisionDataLocked, type ImportSummary } from '../repositories/importer.js';
import { parseImport } from './parse.js';

export { ImportError } from './parse.js';
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
