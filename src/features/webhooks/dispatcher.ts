// Delivers the outbox to webhook subscriptions (contract §10), from every server process: signed
// POSTs, retried with backoff, in commit order per subscription, at least once.
import { retryDelay } from '../events/domain.js';
import type { ClaimedDelivery } from './deliveries.repository.js';
import type { HttpResult } from '../../core/http-client.js';
import type { WorkerContext } from '../../core/workers/worker.js';
import { signDelivery } from './signing.js';
import type { Deps } from '../../app/deps.js';

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
  /** Told when this process disables a subscription (metrics). */
  onDisabled?: (webhookId: string) => void;
}

/** One attempt as recorded. */
interface SendResult {
  /** The receiver's status code, or null when there was no response in time. */
  statusCode: number | null;
  /** Why the attempt failed, or null on a 2xx. */
  error: string | null;
  durationMs: number;
}

/** Deliveries in flight per process: a few slow receivers cannot take every socket. */
export const DEFAULT_CONCURRENCY = 8;
/** Bytes of a receiver's response kept (for the attempt's error text); the rest is never read. */
const MAX_RESPONSE_BYTES = 1024;
/** Beyond the attempt's own timeout, before another process may take a claimed delivery over. */
const LEASE_MARGIN_MS = 5_000;
const HOUR_MS = 3_600_000;

/** Delivers the outbox to webhooks: each run claims one subscription's head delivery, so events arrive in commit order. */
export class WebhookDeliveries {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'http'> & { options: DispatcherOptions }) {}

  /** One worker run (deliveries.worker.ts): true when it did work and may find more. */
  async deliverNext(ctx: WorkerContext): Promise<boolean> {
    const claimed = await this.claim(ctx.now());
    if (claimed === null) return false;
    if (claimed.delivery) ctx.took();
    // A subscription's deliveries follow one another in this run while they succeed: recording an
    // attempt claims the next one in the same write, so a busy queue costs one write per delivery.
    for (let next = claimed.delivery; next !== null;) next = await this.deliver(next, ctx);
    return true;
  }

  /**
   * Queues the deliveries of events committed since the last call and claims a due head, in one
   * write; reads first, so an idle poll takes no write lock. Null: nothing to do.
   */
  private async claim(now: number): Promise<{ delivery: ClaimedDelivery | null } | null> {
    const { fanOut, due } = await this.deps.repos.webhookDeliveries.pendingWork(now);
    if (!fanOut && !due) return null;
    return this.deps.writer.write(async (w) => {
      const repo = w.repos.webhookDeliveries;
      if (fanOut) await repo.fanOut(now);
      const [delivery] = await repo.claim(now, now + this.deps.options.timeoutMs + LEASE_MARGIN_MS, 1);
      return { delivery: delivery ?? null };
    });
  }

  /** Makes one attempt and records it, with what it means for its subscription; then claims the subscription's next due delivery after a success. */
  private async deliver(d: ClaimedDelivery, ctx: WorkerContext): Promise<ClaimedDelivery | null> {
    const timestamp = Math.floor(ctx.now() / 1000);
    const started = performance.now();
    const response = await this.deps.http.request(d.url, {
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
      timeoutMs: this.deps.options.timeoutMs,
      maxBytes: MAX_RESPONSE_BYTES,
      overflow: 'truncate',
      signal: ctx.signal,
    });
    const result = attemptOf(response, Math.round(performance.now() - started));
    // Stopping (the workers or the client): the lease lapses and any instance tries it again (at least once).
    if (ctx.signal.aborted || (!response.ok && response.reason === 'stopped')) return null;
    const outcome = this.outcome(d, result, ctx.now());
    const disableAfterMs = this.deps.options.disableAfterMs ?? 120 * HOUR_MS;
    const { disabled, next } = await this.deps.writer.write(async (w) => {
      const repo = w.repos.webhookDeliveries;
      await repo.complete(d, outcome);
      const reason = disableReason(disableAfterMs, result);
      const disabled = await w.repos.webhooks.noteHealth(
        d.webhook_id,
        result.error === null,
        outcome.at,
        outcome.at - disableAfterMs,
        reason,
      );
      if (disabled || result.error !== null || ctx.signal.aborted) return { disabled, next: null };
      await repo.fanOut(outcome.at);
      const [next] = await repo.claim(outcome.at, outcome.at + this.deps.options.timeoutMs + LEASE_MARGIN_MS, 1, d.webhook_id);
      return { disabled, next: next ?? null };
    });
    if (disabled) {
      ctx.log.warn(
        { webhook: d.webhook_id, url: d.url, lastError: result.error },
        `webhook subscription ${d.webhook_id} disabled: ${disableReason(disableAfterMs, result)}; \`npx sector webhook:enable ${d.webhook_id}\` turns it back on`,
      );
      this.deps.options.onDisabled?.(d.webhook_id);
    }
    return next;
  }

  private outcome(d: ClaimedDelivery, result: SendResult, at: number) {
    const ok = result.error === null;
    const delay = ok ? null : retryDelay(d.attempts, this.deps.options.retryBaseMs, this.deps.options.maxAttempts);
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
  return `every attempt failed for ${hours} hours (last: ${last.error ?? 'no response'})`;
}
