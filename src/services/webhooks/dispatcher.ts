// Delivers the outbox to webhook subscriptions: one dispatcher per server process, any number
// of processes. Work is claimed from the database under a lease, never run on a request.
import type { Db } from '../../db/connection.js';
import { backgroundWrite } from '../../db/transaction.js';
import { retryDelay } from '../../domain/events.js';
import type { Clock } from '../../domain/time.js';
import { type ClaimedDelivery, webhooksRepository } from '../../repositories/webhooks.js';
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
  private timer: NodeJS.Timeout | undefined;
  private claiming = false;
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

  /** Something may be due: a local commit, a finished attempt, or the poll. */
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
    const all = Promise.allSettled([...this.inFlight]);
    const grace = new Promise((resolve) => setTimeout(resolve, graceMs).unref());
    await Promise.race([all, grace]);
    this.aborts.abort();
    await all;
  }

  private async claimLoop(): Promise<void> {
    do {
      this.again = false;
      const free = this.concurrency - this.inFlight.size;
      if (free <= 0 || this.stopped) return;
      let claimed: ClaimedDelivery[];
      let moreToFanOut: boolean;
      try {
        const now = this.clock();
        const leaseUntil = now + this.options.timeoutMs + LEASE_MARGIN_MS;
        // Reads first, so an idle poll takes no write lock.
        const reads = webhooksRepository(this.db.kysely, this.db.dialect);
        const fanOut = await reads.fanOutDue();
        if (!fanOut && !(await reads.anyDue(now))) return;
        // Events committed since the last fan-out get their deliveries in the same write as the claim.
        ({ claimed, moreToFanOut } = await backgroundWrite(this.db, async (trx) => {
          const repo = webhooksRepository(trx, this.db.dialect);
          const fannedOut = fanOut ? await repo.fanOut(now) : { more: false };
          return { claimed: await repo.claim(now, leaseUntil, free), moreToFanOut: fannedOut.more };
        }));
      } catch (err) {
        this.log.warn({ err }, 'could not claim webhook deliveries; trying again shortly');
        return;
      }
      for (const delivery of claimed) {
        const attempt = this.attempt(delivery).finally(() => {
          this.inFlight.delete(attempt);
          this.wake();
        });
        this.inFlight.add(attempt);
      }
      // A full batch may have left more due work behind, a fan-out more events to queue.
      if (claimed.length === free || moreToFanOut) this.again = true;
    } while (this.again);
  }

  private async attempt(d: ClaimedDelivery): Promise<void> {
    const timestamp = Math.floor(this.clock() / 1000);
    const headers = {
      'webhook-id': d.event_id,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signDelivery(d.secret, d.event_id, timestamp, d.body),
    };
    const result = await postWebhook(d.url, headers, d.body, this.options.timeoutMs, this.aborts.signal);
    if (this.aborts.signal.aborted) return;
    try {
      await backgroundWrite(this.db, (trx) => webhooksRepository(trx, this.db.dialect).complete(d, this.outcome(d, result)));
    } catch (err) {
      // The lease runs out and the delivery is tried again: at least once.
      this.log.warn({ err, webhook: d.webhook_id, event: d.event_id }, 'could not record a webhook attempt');
    }
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
