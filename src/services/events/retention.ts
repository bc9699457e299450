// Prunes events and delivery attempts past EVENT_RETENTION_DAYS, at start and then hourly.
import type { Db } from '../../db/connection.js';
import { backgroundWrite } from '../../db/transaction.js';
import type { Clock } from '../../domain/time.js';
import { eventsRepository } from '../../repositories/events.js';

const DAY_MS = 86_400_000;
const EVERY_MS = 3_600_000;

/** One pass: what is older than the retention goes, except events a delivery still waits for. */
export function pruneEvents(db: Db, retentionDays: number, now: number) {
  return backgroundWrite(db, (trx) => eventsRepository(trx, db.dialect).prune(now - retentionDays * DAY_MS));
}

export interface Retention {
  stop(): void;
}

export function startRetention(db: Db, retentionDays: number, clock: Clock, onError: (err: unknown) => void): Retention {
  const run = () => pruneEvents(db, retentionDays, clock()).catch(onError);
  void run();
  const timer = setInterval(() => void run(), EVERY_MS);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}
