// Prunes events and delivery attempts past EVENT_RETENTION_DAYS (the `event-retention` worker).
import type { Writer } from '../../core/write.js';

const DAY_MS = 86_400_000;

/** One pass: what is older than the retention goes, except events a delivery still waits for. */
export function pruneEvents(writer: Writer, retentionDays: number, now: number) {
  return writer.write((w) => w.repos.events.prune(now - retentionDays * DAY_MS));
}
