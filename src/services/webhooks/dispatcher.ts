// Delivers the outbox to webhook subscriptions: one dispatcher per server process, any number of
// processes. An outbox consumer (src/services/jobs/outbox-consumer.ts) whose claim takes each
// subscription's head delivery, so a subscription's events arrive in commit order.
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import { retryDelay } from '../../domain/events.js';
import type { Clock } from '../../domain/time.js';
import { type ClaimedDelivery, webhookDeliveriesRepository } from '../../repositories/webhook-deliveries.js';
import { webhooksRepository } from '../../repositories/webhooks.js';
import { OutboxConsumer } from '../jobs/outbox-consumer.js';
import type { Timers } from '../jobs/timers.js';
import { HttpClient, type HttpResult } from '../http-client.js';
import { signDelivery } from './signing.js';

export interface DispatcherOptions {
  timeoutMs: number;
  retryBaseMs: number;
  maxAttempts: number;
  /** A subscription whose every attempt failed for this long is disabled (WEBHOOK_DISABLE_AFTER_HOURS). */
  disableAfterMs?: number;
  /** Deliveries in flight at once in this process, across subscriptions. */
  concurrency?: number;
  /** How often the queue is read for work committed elsewhere (other processes, the CLI). */
  pollMs?: number;
  timers?: Timers;
  /** Told when this process disables a subscription (metrics). */
  onDisabled?: (webhookId: string) => void;
  /** The process's outbound client; one of the dispatcher's own unless given. */
  http?: HttpClient;
}

/** One attempt as recorded. */
interface SendResult {
  /** The receiver's status code, or null when there was no response in time. */
  statusCode: number | null;
  /** Why the attempt failed, or null on a 2xx. */
  error: string | null;
  durationMs: number;
}

interface Logger {
  warn(obj: object, msg: string): void;
}

/** Deliveries in flight per process: a few slow receivers cannot take every socket. */
export const DEFAULT_CONCURRENCY = 8;
/** Bytes of a receiver's response kept (for the attempt's error text); the rest is never read. */
const MAX_RESPONSE_BYTES = 1024;
/** Beyond the attempt's own timeout, before another process may take a claimed delivery over. */
const LEASE_MARGIN_MS = 5_000;
const HOUR_MS = 3_600_000;

export class WebhookDispatcher {
  private readonly consumer: OutboxConsumer<ClaimedDelivery>;
  private readonly http: HttpClient;

  constructor(
    private readonly db: Db,
    private readonly options: DispatcherOptions,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.http = options.http ?? new HttpClient();
    this.consumer = new OutboxConsumer(
      {
        claim: (limit) => this.claim(limit),
        handle: (d, signal, slots) => this.deliver(d, signal, slots),
        describe: (d) => ({ webhook: d.webhook_id, event: d.event_id }),
      },
      {
        name: 'webhook deliveries',
        concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
        pollMs: options.pollMs ?? 250,
        log,
        ...(options.timers ? { timers: options.timers } : {}),
      },
    );
  }

  start(): void {
    this.consumer.start();
  }

  /** A local commit wrote events: they are fanned out and delivered at once. */
  committed(): void {
    this.consumer.wake();
  }

  wake(): void {
    this.consumer.wake();
  }

  stop(graceMs?: number): Promise<void> {
    return this.consumer.stop(graceMs);
  }

  settled(): Promise<void> {
    return this.consumer.settled();
  }

  /**
   * Queues the deliveries of events committed since the last call and claims due heads, in one
   * write; reads first, so an idle poll takes no write lock. Fanning out needs no free slot: a
   * busy subscription must not keep the others' events from being queued.
   */
  private async claim(limit: number): Promise<{ claimed: ClaimedDelivery[]; more: boolean }> {
    const now = this.clock();
    const reads = webhookDeliveriesRepository(this.db.kysely, this.db.dialect);
    const fanOut = await reads.fanOutDue();
    const claim = limit > 0 && (fanOut || (await reads.anyDue(now)));
    if (!fanOut && !claim) return { claimed: [], more: false };
    return transaction(this.db, async (trx) => {
      const repo = webhookDeliveriesRepository(trx, this.db.dialect);
      const fannedOut = fanOut ? await repo.fanOut(now) : { more: false };
      const leaseUntil = now + this.options.timeoutMs + LEASE_MARGIN_MS;
      return { claimed: claim ? await repo.claim(now, leaseUntil, limit) : [], more: fannedOut.more };
    });
  }

  /**
   * Makes one attempt and records it, with what it means for its subscription; the same write
   * claims the next due deliveries (usually this subscription's next event).
   */
  private async deliver(d: ClaimedDelivery, signal: AbortSignal, slots: () => number): Promise<ClaimedDelivery[]> {
    const timestamp = Math.floor(this.clock() / 1000);
    const started = performance.now();
    const response = await this.http.request(d.url, {
      method: 'POST',
      headers: {
        'webhook-id': d.event_id,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': signDelivery(d.secret, d.event_id, timestamp, d.body),
        'content-type': 'application/json',
        'user-agent': 'Sector-Webhooks/1',
      },
      body: d.body,
      fresh: true,
      timeoutMs: this.options.timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
      overflow: 'truncate',
      signal,
    });
    const result = attemptOf(response, Math.round(performance.now() - started));
    // Stopping (this dispatcher or the client): the lease lapses and any instance tries it again (at least once).
    if (signal.aborted || (!response.ok && response.reason === 'stopped')) return [];
    const outcome = this.outcome(d, result);
    const disableAfterMs = this.options.disableAfterMs ?? 120 * HOUR_MS;
    const { disabled, next } = await transaction(this.db, async (trx) => {
      const repo = webhookDeliveriesRepository(trx, this.db.dialect);
      await repo.complete(d, outcome);
      const reason = disableReason(disableAfterMs, result);
      const disabled = await webhooksRepository(trx, this.db.dialect).noteHealth(
        d.webhook_id,
        result.error === null,
        outcome.at,
        outcome.at - disableAfterMs,
        reason,
      );
      const now = this.clock();
      return { disabled, next: await repo.claim(now, now + this.options.timeoutMs + LEASE_MARGIN_MS, slots()) };
    });
    if (disabled) {
      this.log.warn(
        { webhook: d.webhook_id, url: d.url, lastError: result.error },
        `webhook subscription ${d.webhook_id} disabled: ${disableReason(disableAfterMs, result)}; \`npx sector webhook:enable ${d.webhook_id}\` turns it back on`,
      );
      this.options.onDisabled?.(d.webhook_id);
    }
    return next;
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

/** A 2xx succeeds; anything else fails with the status (a redirect is not followed) and an excerpt of the body. */
function attemptOf(response: HttpResult, durationMs: number): SendResult {
  if (!response.ok) return { statusCode: null, error: response.error, durationMs };
  const status = response.status;
  if (status >= 200 && status < 300) return { statusCode: status, error: null, durationMs };
  const error = status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
  const excerpt = response.body
    .toString('utf8')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, 200);
  return { statusCode: status, error: excerpt ? `${error}: ${excerpt}` : error, durationMs };
}

/** What webhook:list shows for a disabled subscription. */
function disableReason(afterMs: number, last: SendResult): string {
  const hours = Math.round((afterMs / HOUR_MS) * 100) / 100;
  return `every attempt failed for ${hours} hours (last: ${last.error ?? 'no answer'})`;
}
