// Booking changes become events in the change's own transaction (the outbox, docs/events.md).
import type { EventEnvelope, EventType } from '../events/domain.js';
import { isoMicros } from '../../core/domain/time.js';
import { presentBookingFull } from './bookings.view.js';
import type { NewEvent } from '../events/events.repository.js';
import type { BookingFull } from './bookings.schema.js';
import type { BookingChange } from './changes.js';
import { newEventId } from '../webhooks/signing.js';

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
