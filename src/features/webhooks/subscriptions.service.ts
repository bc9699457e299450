// Webhook subscriptions as the CLI manages them; effective on running servers, which read the tables.
import { decodeEventFilter, encodeEventFilter, type EventType, isEventId, webhookUrlProblem } from '../events/domain.js';
import { webhookTarget } from '../audit/domain/index.js';
import { isoMicros } from '../../core/domain/time.js';
import type { AttemptListing, WebhookListing } from './webhooks.repository.js';
import { newWebhookId, newWebhookSecret } from './signing.js';
import type { Deps } from '../../app/deps.js';

/** A request the operator must change: printed as one line. */
export class WebhookError extends Error {}

export interface Subscription {
  id: string;
  url: string;
  /** null: every type. */
  events: EventType[] | null;
  created_at: number;
  removed_at: number | null;
  /** When its attempts had failed for WEBHOOK_DISABLE_AFTER_HOURS, and why; null while active. */
  disabled_at: number | null;
  disabled_reason: string | null;
}

export class WebhookSubscriptionsService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'clock'>) {}

  private repo() {
    return this.deps.repos.webhooks;
  }

  /** Adds a subscription; the secret is returned here once and never again. */
  async add(url: string, events: EventType[] | null): Promise<Subscription & { secret: string }> {
    const problem = webhookUrlProblem(url);
    if (problem !== null) throw new WebhookError(problem);
    const row = {
      id: newWebhookId(),
      url,
      events: encodeEventFilter(events),
      secret: newWebhookSecret(),
      created_at: this.deps.clock(),
      removed_at: null,
    };
    // The secret is never audited: the entry names the URL and the event types only.
    await this.deps.writer.write(async (w) => {
      await w.repos.webhooks.add(row);
      await w.audit({ kind: 'cli' }, [{ action: 'webhook.added', target: webhookTarget(row.id), before: null, after: { url, events } }]);
    });
    return { ...row, events, disabled_at: null, disabled_reason: null };
  }

  async list(): Promise<Subscription[]> {
    return (await this.repo().list()).map((w) => ({ ...w, events: decodeEventFilter(w.events) }));
  }

  async remove(id: string): Promise<Subscription> {
    const now = this.deps.clock();
    const found = await this.repo().find(id);
    if (!found) throw new WebhookError(`no webhook subscription with id "${id}"`);
    const removed = await this.deps.writer.write(async (w) => {
      if (!(await w.repos.webhooks.remove(id, now))) return false;
      const entry = { url: found.url, events: decodeEventFilter(found.events), removed_at: null };
      await w.audit({ kind: 'cli' }, [
        {
          action: 'webhook.removed',
          target: webhookTarget(id),
          before: entry,
          after: { removed_at: isoMicros(now) },
        },
      ]);
      return true;
    });
    if (!removed) throw new WebhookError(`webhook subscription ${id} is already removed`);
    return { ...found, events: decodeEventFilter(found.events), removed_at: now };
  }

  /** Turns a disabled subscription back on, for the events committed from now on. */
  async enable(id: string): Promise<Subscription> {
    const now = this.deps.clock();
    const found = await this.repo().find(id);
    if (!found) throw new WebhookError(`no webhook subscription with id "${id}"`);
    if (found.removed_at !== null) throw new WebhookError(`webhook subscription ${id} is removed`);
    const enabled = await this.deps.writer.write(async (w) => {
      if (!(await w.repos.webhooks.enable(id))) return false;
      await w.audit({ kind: 'cli' }, [
        {
          action: 'webhook.enabled',
          target: webhookTarget(id),
          before: { disabled_at: isoMicros(found.disabled_at ?? now), disabled_reason: found.disabled_reason },
          after: { disabled_at: null, disabled_reason: null },
        },
      ]);
      return true;
    });
    if (!enabled) throw new WebhookError(`webhook subscription ${id} is not disabled`);
    return { ...found, events: decodeEventFilter(found.events), disabled_at: null, disabled_reason: null };
  }

  async deliveries(id: string, limit = 50): Promise<AttemptListing[]> {
    if (!(await this.repo().find(id))) throw new WebhookError(`no webhook subscription with id "${id}"`);
    return this.repo().attempts(id, limit);
  }

  /** Queues an event again (to one subscription, or every active one taking its type); returns how many. */
  async redeliver(eventId: string, to: string | null): Promise<number> {
    if (!isEventId(eventId)) throw new WebhookError(`"${eventId}" is not an event id (evt_…)`);
    const usable = (target: WebhookListing | undefined) => {
      if (!target) throw new WebhookError(`no webhook subscription with id "${to}"`);
      if (target.removed_at !== null) throw new WebhookError(`webhook subscription ${to} is removed`);
      if (target.disabled_at !== null)
        throw new WebhookError(`webhook subscription ${to} is disabled; turn it on with webhook:enable ${to}`);
    };
    if (to !== null) usable(await this.repo().find(to));
    const now = this.deps.clock();
    return this.deps.writer.write(async (w) => {
      const events = w.repos.events;
      const event = await events.findById(eventId);
      if (!event) throw new WebhookError(`no event ${eventId} (unknown, or older than the retention)`);
      // Queued in commit order like a new event, behind what each subscription already waits for
      // (events committed before are queued first).
      await events.lockCommitOrder();
      await w.repos.webhookDeliveries.fanOut(now, { wait: true });
      // Read again under the fan-out lock that removing and enabling take: removed or disabled meanwhile is said so.
      if (to !== null) usable(await w.repos.webhooks.find(to));
      return w.repos.webhooks.redeliver(event, to, now);
    });
  }
}
