// Delivers the outbox to webhook subscriptions: one dispatcher per server process, any number
// of processes. Work is claimed from the database under a lease, never run on a request.
import type { Db } from '../../db/connection.js';
import { backgroundWrite } from '../../db/transaction.js';
import { retryDelay } from '../../domain/events.js';
import type { Clock } from '../../domain/time.js';
import { type ClaimedDelivery, webhooksRepository } from '../../repositories/webhooks.js';
import { BackgroundPacing } from '../background-pacing.js';
import { TakeSpacing } from '../events/take-spacing.js';
import { postWebhook, type SendResult } from './send.js';
import { signDelivery } from './signing.js';

export interface DispatcherOptions {
  timeoutMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  /** Deliveries in flight at once in this process, across subscriptions. */
  concurrency?: number;
  /** How often the queue is read for work committed elsewhere (other processes, the CLI). */
  pollMs?: number;
}

interface Logger {
  warn(obj: object, msg: string): void;
}

/** Deliveries in flight per process: a few slow receivers cannot take every socket. */
export const DEFAULT_CONCURRENCY = 8;
/** Beyond the attempt's own timeout, before another process may take a claimed delivery over. */
const LEASE_MARGIN_MS = 5_000;

export class WebhookDispatcher {
  private readonly concurrency: number;
  private readonly pollMs: number;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly aborts = new AbortController();
  private readonly spacing = new TakeSpacing(() => this.wake());
  private readonly pacing = new BackgroundPacing(() => this.wake());
  private timer: NodeJS.Timeout | undefined;
  private claiming = false;
  /** Slots held for claims being written (see freeSlots). */
  private reserved = 0;
  private again = false;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly options: DispatcherOptions,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.concurrency = options.concurrency ?? DEFAULT_CONCURRENCY;
    this.pollMs = options.pollMs ?? 250;
  }

  start(): void {
    this.timer = setInterval(() => this.wake(), this.pollMs);
    this.timer.unref();
    this.wake();
  }

  /** A local commit wrote events: they are fanned out at once, or with the next spaced take. */
  committed(): void {
    if (this.spacing.mayTake()) this.wake();
  }

  /** Something may be due: a finished attempt, the poll, or events to fan out. */
  wake(): void {
    if (this.stopped) return;
    if (this.claiming) {
      this.again = true;
      return;
    }
    this.claiming = true;
    void this.claimLoop().finally(() => {
      this.claiming = false;
    });
  }

  /**
   * Stops claiming, gives attempts under way a moment to finish, then abandons them: their
   * leases expire and any instance tries them again (delivery is at least once).
   */
  async stop(graceMs = 2_000): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.spacing.stop();
    this.pacing.stop();
    const all = Promise.allSettled([...this.inFlight]);
    const grace = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([all, grace]);
    this.aborts.abort();
    await all;
  }

  /** Slots neither busy with an attempt nor held for a claim being written. */
  private freeSlots(): number {
    return this.concurrency - this.inFlight.size - this.reserved;
  }

  private async claimLoop(): Promise<void> {
    do {
      this.again = false;
      if (this.stopped) return;
      let free = 0;
      let claimed: ClaimedDelivery[];
      let moreToFanOut: boolean;
      try {
        const now = this.clock();
        // Reads first, so an idle poll takes no write lock. Fanning out needs no free slot: a
        // busy subscription must not keep the others' events from being queued.
        const reads = webhooksRepository(this.db.kysely, this.db.dialect);
        const look = this.spacing.mayTake();
        if (look) this.spacing.taking();
        const fanOut = look && (await reads.fanOutDue());
        const due = this.freeSlots() > 0 && (fanOut || (await reads.anyDue(now)));
        // The pace is asked only when there is something to claim, so a fan-out alone leaves it alone.
        // Held for this claim: attempts that finish meanwhile claim into the other free slots only.
        free = due ? this.pacing.allow(this.freeSlots()) : 0;
        this.reserved += free;
        if (!fanOut && free === 0) return;
        // Events committed since the last fan-out get their deliveries in the same write as the claim.
        ({ claimed, moreToFanOut } = await backgroundWrite(this.db, async (trx) => {
          const repo = webhooksRepository(trx, this.db.dialect);
          const fannedOut = fanOut ? await repo.fanOut(now) : { more: false };
          return { claimed: free > 0 ? await repo.claim(now, this.leaseUntil(now), free) : [], moreToFanOut: fannedOut.more };
        }));
      } catch (err) {
        this.log.warn({ err }, 'could not claim webhook deliveries; trying again shortly');
        return;
      } finally {
        this.reserved -= free;
      }
      this.launch(claimed);
      // A full batch may have left more due work behind, a fan-out more events to queue.
      if ((free > 0 && claimed.length === free) || moreToFanOut) this.again = true;
    } while (this.again);
  }

  private leaseUntil(now: number): number {
    return now + this.options.timeoutMs + LEASE_MARGIN_MS;
  }

  private launch(claimed: ClaimedDelivery[]): void {
    for (const delivery of claimed) {
      const attempt = this.attempt(delivery)
        .catch((err: unknown) => {
          // Its lease runs out and the delivery is tried again: at least once.
          this.log.warn({ err, webhook: delivery.webhook_id, event: delivery.event_id }, 'a webhook attempt failed');
          return false;
        })
        .then((nothingToLookFor) => {
          this.inFlight.delete(attempt);
          // Fewer due than the slots it had: what is left (other processes' work, retries) is looked for.
          if (!nothingToLookFor) this.wake();
        });
      this.inFlight.add(attempt);
    }
  }

  /**
   * Makes one attempt and records it. The same write claims the next due deliveries into the
   * slot this attempt leaves and any other free one (a subscription's next event, usually), so a
   * backlog is worked through with one write per delivery. Returns whether the dispatcher need
   * not look for work now: it claimed as many as it had slots for (its successors look when they
   * finish), or the pace held the slots back (the pace wakes the dispatcher when they may start).
   */
  private async attempt(d: ClaimedDelivery): Promise<boolean> {
    const timestamp = Math.floor(this.clock() / 1000);
    const headers = {
      'webhook-id': d.event_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signDelivery(d.secret, d.event_id, timestamp, d.body),
    };
    const result = await postWebhook(d.url, headers, d.body, this.options.timeoutMs, this.aborts.signal);
    if (this.aborts.signal.aborted) return true;
    // This attempt's own slot, held until its successors are launched.
    const slots = this.stopped ? 0 : this.pacing.allow(this.freeSlots() + 1);
    const others = Math.max(0, slots - 1);
    this.reserved += others;
    let next: ClaimedDelivery[];
    try {
      next = await backgroundWrite(this.db, async (trx) => {
        const repo = webhooksRepository(trx, this.db.dialect);
        await repo.complete(d, this.outcome(d, result));
        const now = this.clock();
        return slots > 0 ? repo.claim(now, this.leaseUntil(now), slots) : [];
      });
    } catch (err) {
      // The lease runs out and the delivery is tried again: at least once.
      this.log.warn({ err, webhook: d.webhook_id, event: d.event_id }, 'could not record a webhook attempt');
      return false;
    } finally {
      this.reserved -= others;
    }
    if (this.stopped) {
      // Claimed while stopping: let the leases lapse, any instance takes them (at least once).
      return true;
    }
    this.launch(next);
    return slots === 0 || next.length === slots;
  }

  private outcome(d: ClaimedDelivery, result: SendResult) {
    const at = this.clock();
    const ok = result.error === null;
    const delay = ok ? null : retryDelay(d.attempts, this.options.retryBaseMs, this.options.maxAttempts);
    return {
      status: ok ? ('succeeded' as const) : delay === null ? ('failed' as const) : ('pending' as const),
      nextAttemptAt: delay === null ? at : at + delay,
      statusCode: result.statusCode,
      error: result.error,
      at,
      durationMs: result.durationMs,
    };
  }
}
