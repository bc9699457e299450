// Every change is one transaction, and what it causes (events, audit entries, network pushes) is written
// inside it through its Write: all of them commit or none. Workers are woken after the commit.
import type { Db, Dialect, Executor } from './db/connection.js';
import { transaction } from './db/transaction.js';
import { type AuditActor, type AuditEntry, bookingAction, bookingDiff, bookingTarget } from '../features/audit/domain/index.js';
import type { Clock } from './domain/time.js';
import { createRepositories, type Repositories } from '../app/repositories.js';
import type { BookingChange } from '../features/bookings/changes.js';
import { bookingEvents } from '../features/bookings/events.js';
import type { NewMail } from './mail.repository.js';
import type { EventType } from '../features/events/domain.js';
import { isoMicros } from './domain/time.js';
import { newEventId } from '../features/webhooks/signing.js';

/** What a committed write wakes: the consumers of the outbox (webhooks, the stream, the network sync), the mail sender. */
export type WakeUp = 'events' | 'mail';

/** What the writes of this process owe others beyond their own rows. */
export interface WriteSettings {
  /** Network sync is configured: changes made through the API or pages are to be pushed to the network. */
  networkSync: boolean;
  /** Mail is configured (SMTP_URL): mail written by changes is sent; without it none is written. */
  mail: boolean;
}

export class Write {
  readonly wakeUps = new Set<WakeUp>();
  private repositories: Repositories | undefined;

  constructor(
    /** The transaction: every statement of the change runs on it. */
    readonly trx: Executor,
    readonly dialect: Dialect,
    /** The change's time (the application clock), written to what it changes. */
    readonly at: number,
    private readonly settings: WriteSettings,
  ) {}

  /** The repositories, on this write's transaction. */
  get repos(): Repositories {
    return (this.repositories ??= createRepositories(this.trx, this.dialect));
  }

  /** Audit entries of the change, at its time. */
  async audit(actor: AuditActor, entries: ReadonlyArray<Omit<AuditEntry, 'at' | 'actor'>>): Promise<void> {
    await this.repos.audit.append(entries.map((e) => ({ ...e, at: this.at, actor })));
  }

  /**
   * Booking changes: an event each, pushed to the network too when made through the API or a page
   * while network sync is configured (imports are history, not pushed), and an audit entry each.
   */
  async bookingsChanged(changes: readonly BookingChange[], actor: AuditActor, origin: 'api' | 'import'): Promise<void> {
    if (changes.length === 0) return;
    const entries: Array<Omit<AuditEntry, 'at' | 'actor'>> = [];
    for (const change of changes) {
      const diff = bookingDiff(change.before, change.after);
      if (diff !== null)
        entries.push({ action: bookingAction(change.before, change.after), target: bookingTarget(change.after.id), ...diff });
    }
    await this.audit(actor, entries);
    const events = this.repos.events;
    // Numbered last in the transaction, so the commit-order lock is held as briefly as possible.
    await events.lockCommitOrder();
    await events.insert(bookingEvents([...changes], this.at, this.settings.networkSync && origin === 'api'));
    this.wakeUps.add('events');
  }

  /** Events other than bookings' (endorsements, roles, positions, trainings): one each, bodies as delivered. */
  async publish(events: ReadonlyArray<{ type: EventType; data: Record<string, unknown> }>): Promise<void> {
    if (events.length === 0) return;
    const timestamp = isoMicros(this.at);
    const rows = events.map(({ type, data }) => {
      const id = newEventId(this.at);
      return { id, type, booking_id: null, body: JSON.stringify({ id, type, timestamp, data }), created_at: this.at, network_push: 0 };
    });
    await this.repos.events.lockCommitOrder();
    await this.repos.events.insert(rows);
    this.wakeUps.add('events');
  }

  /** Mail to be sent to members after the commit (nothing when mail is not configured). Addresses are not checked here. */
  async mail(mails: readonly NewMail[]): Promise<void> {
    if (!this.settings.mail || mails.length === 0) return;
    await this.repos.mail.add(mails, this.at);
    this.wakeUps.add('mail');
  }
}

/** Runs writes: one transaction each, its wake-ups sent after the commit. */
export class Writer {
  constructor(
    readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: WriteSettings,
    private readonly wake: (what: WakeUp) => void,
  ) {}

  async write<T>(fn: (w: Write) => Promise<T>): Promise<T> {
    let last: Write | undefined;
    const result = await transaction(this.db, (trx) => fn((last = new Write(trx, this.db.dialect, this.clock(), this.settings))));
    for (const what of last!.wakeUps) this.wake(what);
    return result;
  }
}
