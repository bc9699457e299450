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

/**
 * The events of the changes, bodies as delivered: the booking as committed, in its full form.
 * `networkPush`: the changes are owed to the network (derived from these events later).
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

export class EventOutbox implements BookingChangeRecorder {
  private readonly listeners = new Set<() => void>();

  /**
   * `networkSync`: network sync is configured, so changes made through the API are marked as owed
   * to the network (imports never are).
   */
  constructor(
    private readonly dialect: Dialect,
    private readonly networkSync = false,
  ) {}

  /**
   * Writes the events, and only them: webhook deliveries and network pushes are derived from the
   * outbox after the commit, in batches, so a change costs the same whatever is configured.
   */
  async record(trx: Transaction, changes: BookingChange[], context: ChangeContext): Promise<void> {
    const repo = eventsRepository(trx, this.dialect);
    // Numbered last in the transaction, so the commit-order lock is held as briefly as possible.
    await repo.lockCommitOrder();
    await repo.insert(bookingEvents(changes, context.at, this.networkSync && context.origin === 'api'));
  }

  committed(): void {
    for (const listener of this.listeners) listener();
  }

  /** Called after every local commit that wrote events (wakes the dispatcher, the network pusher and the stream). */
  onCommitted(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
