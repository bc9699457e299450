import type { Db } from '../db/connection.js';
import { writeTransaction } from '../db/transaction.js';
import { applyImport, type ImportSummary } from '../repositories/importer.js';
import { parseImport } from './parse.js';

export { ImportError } from './parse.js';
export type { ImportSummary };

/** Validates and applies an import file's content in one transaction: all of it or nothing. */
export async function runImport(db: Db, data: unknown, now: number): Promise<ImportSummary> {
  const plan = parseImport(data);
  return writeTransaction(db, (trx) => applyImport(trx, db.dialect, plan, now));
}
