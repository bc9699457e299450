// Every change is one transaction, and what it causes (events, audit entries, mail) is written inside
// it through its Write: all of them commit or none. Workers are woken after the commit. The machinery
// knows only the outbox's tables; the features' repositories come from the composition root
// (src/app/repositories.ts), which also names the event types (src/app/deps.ts: `Write`).
import type { Db, Dialect, Executor } from './db/connection.js';
import { transaction } from './db/transaction.js';
import type { AuditActor, AuditEntry } from './domain/audit.js';
import type { Clock } from './domain/time.js';
import { isoMicros } from './domain/time.js';
import type { NewMail } from './mail.repository.js';
import { type NewEvent, newEventId } from './outbox.js';
import type { leasesRepository } from './workers/leases.repository.js';

/** What a committed write wakes: the consumers of the outbox (webhooks, the stream, the network sync), the mail sender. */
export type WakeUp = 'events' | 'mail';

/** What the writes of this process owe others beyond their own rows. */
export interface WriteSettings {
  /** Network sync is configured: changes made through the API or pages are to be pushed to the network. */
  networkSync: boolean;
  /** Mail is configured (SMTP_URL): mail written by changes is sent; without it none is written. */
  mail: boolean;
}

/** The repositories a Write itself uses: the outbox's tables, and the leases of src/core/workers. */
export interface OutboxRepositories {
  audit: { append(entries: AuditEntry[]): Promise<void> };
  events: { lockCommitOrder(): Promise<void>; insert(rows: NewEvent[]): Promise<void> };
  mail: { add(mails: readonly NewMail[], at: number): Promise<void> };
  leases: ReturnType<typeof leasesRepository>;
}

/** Builds the repositories over a transaction (the composition root's createRepositories). */
export type RepositoriesFactory<R> = (trx: Executor, dialect: Dialect) => R;

export class Write<R extends OutboxRepositories = OutboxRepositories, E extends string = string> {
  readonly wakeUps = new Set<WakeUp>();
  private repositories: R | undefined;

  constructor(
    /** The transaction: every statement of the change runs on it. */
    readonly trx: Executor,
    readonly dialect: Dialect,
    /** The change's time (the application clock), written to what it changes. */
    readonly at: number,
    readonly settings: WriteSettings,
    private readonly makeRepositories: RepositoriesFactory<R>,
  ) {}

  /** The repositories, on this write's transaction. */
  get repos(): R {
    return (this.repositories ??= this.makeRepositories(this.trx, this.dialect));
  }

  /** Audit entries of the change, at its time. */
  async audit(actor: AuditActor, entries: ReadonlyArray<Omit<AuditEntry, 'at' | 'actor'>>): Promise<void> {
    await this.repos.audit.append(entries.map((e) => ({ ...e, at: this.at, actor })));
  }

  /** Events as rows of the outbox (a feature that writes its own bodies, as bookings do). */
  async publishRows(rows: NewEvent[]): Promise<void> {
    if (rows.length === 0) return;
    // Numbered last in the transaction, so the commit-order lock is held as briefly as possible.
    await this.repos.events.lockCommitOrder();
    await this.repos.events.insert(rows);
    this.wakeUps.add('events');
  }

  /** Events: one each, bodies as delivered. */
  async publish(events: ReadonlyArray<{ type: E; data: Record<string, unknown> }>): Promise<void> {
    const timestamp = isoMicros(this.at);
    const rows = events.map(({ type, data }) => {
      const id = newEventId(this.at);
      return { id, type, booking_id: null, body: JSON.stringify({ id, type, timestamp, data }), created_at: this.at, network_push: 0 };
    });
    await this.publishRows(rows);
  }

  /** Mail to be sent to members after the commit (nothing when mail is not configured). Addresses are not checked here. */
  async mail(mails: readonly NewMail[]): Promise<void> {
    if (!this.settings.mail || mails.length === 0) return;
    await this.repos.mail.add(mails, this.at);
    this.wakeUps.add('mail');
  }
}

/** Runs writes: one transaction each, its wake-ups sent after the commit. */
export class Writer<R extends OutboxRepositories = OutboxRepositories, E extends string = string> {
  constructor(
    readonly db: Db,
    private readonly clock: Clock,
    private readonly settings: WriteSettings,
    private readonly wake: (what: WakeUp) => void,
    private readonly makeRepositories: RepositoriesFactory<R>,
  ) {}

  async write<T>(fn: (w: Write<R, E>) => Promise<T>): Promise<T> {
    let last: Write<R, E> | undefined;
    const result = await transaction(this.db, (trx) =>
      fn((last = new Write<R, E>(trx, this.db.dialect, this.clock(), this.settings, this.makeRepositories))),
    );
    for (const what of last!.wakeUps) this.wake(what);
    return result;
  }
}
