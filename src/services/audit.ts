import type { Db } from '../db/connection.js';
import { type AuditEntry, bookingAction, bookingDiff, bookingTarget, type StoredAuditEntry } from '../domain/audit/index.js';
import { appendAudit, type AuditFilter, listAudit, pruneAudit } from '../repositories/audit.js';
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

/** Prunes the audit log now and every `intervalMs`; stop() ends it. */
export interface AuditRetention {
  stop(): void;
}

const DAY_MS = 86_400_000;

/**
 * Keeps `days` days of audit entries: prunes at start and then hourly (one DELETE, off the request
 * path). Failures are reported and retried at the next turn.
 */
export function startAuditRetention(
  db: Db,
  days: number,
  clock: () => number,
  onPruned: (deleted: number) => void,
  onError: (err: unknown) => void,
  intervalMs = 3_600_000,
): AuditRetention {
  let running = false;
  const prune = () => {
    if (running) return;
    running = true;
    pruneAudit(db.kysely, clock() - days * DAY_MS)
      .then((n) => n > 0 && onPruned(n), onError)
      .finally(() => (running = false));
  };
  prune();
  const timer = setInterval(prune, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** Entries matching the filter, newest first (the audit command). */
export function readAudit(db: Db, filter: AuditFilter): Promise<StoredAuditEntry[]> {
  return listAudit(db.kysely, filter);
}
