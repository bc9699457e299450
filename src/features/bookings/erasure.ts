// A member erased on request (contract §24): their bookings that have not begun are cancelled as any
// deletion is (audit entry, event, the network told); those begun or past stay as history.
import type { Write } from '../../app/deps.js';
import type { AuditActor } from '../audit/domain/index.js';
import { recordBookingChanges } from './events.js';

/** Cancels the member's bookings starting after now, in the erase's write; returns their ids. */
export async function cancelUpcomingBookings(w: Write, cid: number, actor: AuditActor): Promise<number[]> {
  const repo = w.repos.bookings;
  const ids = (await repo.list({ cid, from: w.at })).filter((b) => b.time_start > w.at).map((b) => b.id);
  if (ids.length === 0) return [];
  const before = await repo.lockedViews(ids);
  const cancelled = await repo.softDeleteMany(ids, w.at);
  const after = new Map((await repo.viewsByIds(cancelled)).map((b) => [b.id, b]));
  await recordBookingChanges(
    w,
    before.filter((b) => after.has(b.id)).map((b) => ({ kind: 'deleted' as const, before: b, after: after.get(b.id)! })),
    actor,
    'api',
  );
  return cancelled;
}
