// Booking changes become events in the change's own transaction (the outbox, docs/events.md).
import type { EventEnvelope, EventType } from '../events/domain.js';
import { isoMicros } from '../../core/domain/time.js';
import { presentBookingFull } from './bookings.presenter.js';
import type { NewEvent } from '../events/index.js';
import type { BookingFull } from './bookings.schema.js';
import type { BookingChange } from './changes.js';
import type { Write } from '../../app/deps.js';
import { type AuditActor, type AuditEntry, bookingAction, bookingDiff, bookingTarget } from '../audit/domain/index.js';
import { newEventId } from '../../core/outbox.js';

export type BookingEvent = EventEnvelope<{ booking: BookingFull }>;

const TYPES: Record<BookingChange['kind'], EventType> = {
  created: 'booking.created',
  updated: 'booking.updated',
  deleted: 'booking.deleted',
};

/**
 * The events of the changes, bodies as delivered: the booking as committed, in its full form.
 * `networkPush`: the changes are still to be pushed to the network (derived from these events later).
 */
export function bookingEvents(changes: BookingChange[], at: number, networkPush = false): NewEvent[] {
  const timestamp = isoMicros(at);
  const network_push = networkPush ? 1 : 0;
  return changes.map((change) => {
    const id = newEventId(at);
    const event: BookingEvent = { id, type: TYPES[change.kind], timestamp, data: { booking: presentBookingFull(change.after) } };
    return { id, type: event.type, booking_id: change.after.id, body: JSON.stringify(event), created_at: at, network_push };
  });
}

/**
 * Booking changes, recorded in their write: an audit entry each, and an event each, pushed to the
 * network too when made through the API or a page while network sync is configured (imports are
 * history, not pushed).
 */
export async function recordBookingChanges(
  w: Write,
  changes: readonly BookingChange[],
  actor: AuditActor,
  origin: 'api' | 'import',
): Promise<void> {
  if (changes.length === 0) return;
  const entries: Array<Omit<AuditEntry, 'at' | 'actor'>> = [];
  for (const change of changes) {
    const diff = bookingDiff(change.before, change.after);
    if (diff !== null)
      entries.push({ action: bookingAction(change.before, change.after), target: bookingTarget(change.after.id), ...diff });
  }
  await w.audit(actor, entries);
  await w.publishRows(bookingEvents([...changes], w.at, w.settings.networkSync && origin === 'api'));
}
