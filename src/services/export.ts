import type { Db } from '../db/connection.js';
import { exportText } from '../presenters/export.js';
import { readDivision } from '../repositories/exporter.js';

/**
 * The division's data in the import format, read as of one moment: in one transaction (a
 * PostgreSQL REPEATABLE READ snapshot; on SQLite a read transaction sees one WAL snapshot).
 */
export async function exportDivision(db: Db): Promise<string> {
  const rows =
    db.dialect === 'postgres'
      ? await db.kysely
          .transaction()
          .setIsolationLevel('repeatable read')
          .execute((trx) => readDivision(trx))
      : await db.kysely.transaction().execute((trx) => readDivision(trx));
  return exportText(rows);
}
