// Prunes events and delivery attempts past EVENT_RETENTION_DAYS (the `event-retention` job).
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import { eventsRepository } from '../../repositories/events.js';

const DAY_MS = 86_400_000;

/** One pass: what is older than the retention goes, except events a delivery still waits for. */
export function pruneEvents(db: Db, retentionDays: number, now: number) {
  return transaction(db, (trx) => eventsRepository(trx, db.dialect).prune(now - retentionDays * DAY_MS));
}
