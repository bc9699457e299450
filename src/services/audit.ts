import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { type AuditEntry, bookingAction, bookingDiff, bookingTarget } from '../domain/audit/index.js';
import { appendAudit, pruneAudit } from '../repositories/audit.js';
import type { BookingChange, BookingChangeRecorder, ChangeContext } from './booking-changes.js';

/** Audit entries for booking changes made through the API, in the change's transaction. */
export const auditRecorder: BookingChangeRecorder = {
  async record(trx: Kysely<Database>, changes: BookingChange[], context: ChangeContext): Promise<void> {
    const entries: AuditEntry[] = [];
    for (const change of changes) {
      const diff = bookingDiff(change.before, change.after);
      if (diff === null) continue;
      entries.push({ at: context.at, actor: context.actor, action: bookingAction(change.before, change.after), target: bookingTarget(change.after.id), ...diff });
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
  db: Kysely<Database>,
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
    pruneAudit(db, clock() - days * DAY_MS)
      .then((n) => n > 0 && onPruned(n), onError)
      .finally(() => (running = false));
  };
  prune();
  const timer = setInterval(prune, intervalMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
