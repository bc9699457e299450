import type { Db } from '../db/connection.js';
import type { Topic } from '../db/freshness.js';
import { writeTransaction } from '../db/transaction.js';
import { parseImport } from '../import/parse.js';
import type { AuditActor, AuditEntry } from '../domain/audit/index.js';
import { appendAudit } from '../repositories/audit.js';
import { hasDivisionData, holdsDivisionDataLocked } from '../repositories/division-data.js';
import { applyImport, type ImportSummary } from '../repositories/importer.js';
import type { ImportedBooking } from '../repositories/import-bookings.js';

export { ImportError } from '../import/plan.js';
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
  return (await importChanges(db, data, now, options)).summary;
}

/** What an import changed, for the caches of the process that ran it (Freshness.bump). */
export function changedTopics(outcome: { summary: ImportSummary; namesChanged: boolean }): Topic[] {
  const s = outcome.summary;
  const topics: Topic[] = [];
  if (s.areas + s.users + s.endorsements + s.roles + s.trainings > 0) topics.push('users');
  if (outcome.namesChanged) topics.push('names');
  if (s.positions > 0) topics.push('positions');
  if (s.bookings > 0) topics.push('bookings');
  return topics;
}

/** runImport, telling also which topics of cached answers the import changed. */
export async function importChanges(
  db: Db,
  data: unknown,
  now: number,
  options: ImportOptions = {},
): Promise<{ summary: ImportSummary; topics: Topic[] }> {
  const plan = parseImport(data);
  const outcome = await writeTransaction(db, async (trx) => {
    if (options.intoEmptyDatabase && (await holdsDivisionDataLocked(trx, db.dialect))) throw new DatabaseNotEmptyError();
    const outcome = await applyImport(trx, db.dialect, plan, now);
    // The bookings' own entries come through onBookings (the recorders), like those of API writes.
    const entry: AuditEntry = {
      at: now,
      actor: options.actor ?? { kind: 'cli' },
      action: 'import',
      target: options.source ?? 'import',
      before: null,
      after: { ...outcome.summary },
    };
    await appendAudit(trx, [entry]);
    await options.onBookings?.(trx, outcome.bookings);
    return outcome;
  });
  options.onCommitted?.();
  return { summary: outcome.summary, topics: changedTopics(outcome) };
}

/** True when the database already holds users or bookings (a demo must not be mixed into real data). */
export function holdsDivisionData(db: Db): Promise<boolean> {
  return hasDivisionData(db.kysely);
}
