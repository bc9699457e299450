// Booking changes become events in the change's own transaction (the outbox, docs/events.md).
import type { Dialect } from '../../db/connection.js';
import type { EventEnvelope, EventType } from '../../domain/events.js';
import { isoMicros } from '../../domain/time.js';
import { presentBookingFull } from '../../presenters/bookings.js';
import { eventsRepository, type NewEvent } from '../../repositories/events.js';
import type { BookingFull } from '../../schemas/bookings.js';
import type { BookingChange, BookingChangeRecorder, ChangeContext } from '../booking-changes.js';
import { newEventId } from '../webhooks/signing.js';

/** The change's transaction, as the seam hands it over. */
type Transaction = Parameters<BookingChangeRecorder['record']>[0];

export type BookingEvent = EventEnvelope<{ booking: BookingFull }>;

const TYPES: Record<BookingChange['kind'], EventType> = {
  created: 'booking.created',
  updated: 'booking.updated',
  deleted: 'booking.deleted',
};

/** The events of the changes, bodies as delivered: the booking as committed, in its full form. */
export function bookingEvents(changes: BookingChange[], at: number): NewEvent[] {
  const timestamp = isoMicros(at);
  return changes.map((change) => {
    const id = newEventId(at);
    const event: BookingEvent = { id, type: TYPES[change.kind], timestamp, data: { booking: presentBookingFull(change.after) } };
    return { id, type: event.type, booking_id: change.after.id, body: JSON.stringify(event), created_at: at };
  });
}

export class EventOutbox implements BookingChangeRecorder {
  private readonly listeners = new Set<() => void>();

  constructor(private readonly dialect: Dialect) {}

  async record(trx: Transaction, changes: BookingChange[], context: ChangeContext): Promise<void> {
    const repo = eventsRepository(trx, this.dialect);
    // Numbered last in the transaction, so the commit-order lock is held as briefly as possible.
    await repo.lockCommitOrder();
    await repo.insertWithDeliveries(bookingEvents(changes, context.at), context.at);
  }

  committed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Called after every local commit that wrote events (wakes the dispatcher and the stream). */
  onCommitted(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
