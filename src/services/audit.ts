import type { Db } from '../db/connection.js';
import { type AuditEntry, bookingAction, bookingDiff, bookingTarget, type StoredAuditEntry } from '../domain/audit/index.js';
import { appendAudit, type AuditFilter, listAudit } from '../repositories/audit.js';
import type { BookingChangeRecorder } from './booking-changes.js';

/** Audit entries for booking changes made through the API, in the change's transaction. */
export const auditRecorder: BookingChangeRecorder = {
  async record(trx, changes, context): Promise<void> {
    const entries: AuditEntry[] = [];
    for (const change of changes) {
      const diff = bookingDiff(change.before, change.after);
      if (diff === null) continue;
      entries.push({
        at: context.at,
        actor: context.actor,
        action: bookingAction(change.before, change.after),
        target: bookingTarget(change.after.id),
        ...diff,
      });
    }
    await appendAudit(trx, entries);
  },
};

/** Entries matching the filter, newest first (the audit command). */
export function readAudit(db: Db, filter: AuditFilter): Promise<StoredAuditEntry[]> {
  return listAudit(db.kysely, filter);
}
