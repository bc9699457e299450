import type { Db } from '../db/connection.js';
import { writeTransaction } from '../db/transaction.js';
import { type AuditActor, type AuditEntry, bookingAction, bookingDiff, bookingTarget } from '../domain/audit/index.js';
import { appendAudit } from '../repositories/audit.js';
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
  /** What the audit log names as the import's target (the file name); default "import". */
  source?: string;
  /** Who imports; default the command line. */
  actor?: AuditActor;
}

/**
 * Validates and applies an import file's content in one transaction: all of it or nothing. The
 * audit log gets one `import` entry (counts per section) and one entry per booking changed, in
 * the same transaction.
 */
export async function runImport(db: Db, data: unknown, now: number, options: ImportOptions = {}): Promise<ImportSummary> {
  const plan = parseImport(data);
  const actor = options.actor ?? { kind: 'cli' };
  return writeTransaction(db, async (trx) => {
    if (options.intoEmptyDatabase && (await holdsDivisionDataLocked(trx, db.dialect))) throw new DatabaseNotEmptyError();
    const { summary, bookings } = await applyImport(trx, db.dialect, plan, now);
    const entries: AuditEntry[] = [
      { at: now, actor, action: 'import', target: options.source ?? 'import', before: null, after: { ...summary } },
    ];
    for (const b of bookings) {
      const diff = bookingDiff(b.before, b.after);
      if (diff !== null) entries.push({ at: now, actor, action: bookingAction(b.before, b.after), target: bookingTarget(b.id), ...diff });
    }
    await appendAudit(trx, entries);
    return summary;
  });
}
