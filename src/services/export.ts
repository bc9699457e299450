import type { Db } from '../db/connection.js';
import { readSnapshot } from '../db/transaction.js';
import { exportText } from '../presenters/export.js';
import { readRepositories } from '../repositories/index.js';

/** `npx sector export`: the division's data in the import format. */
export class Exports {
  constructor(private readonly db: Db) {}

  /** Read as of one moment: one snapshot of the database. */
  async text(): Promise<string> {
    return exportText(await readSnapshot(this.db, (trx) => readRepositories(trx, this.db.dialect).export.readDivision()));
  }
}
