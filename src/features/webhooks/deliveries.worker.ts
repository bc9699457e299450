// Webhook deliveries from every instance (contract §10), up to their concurrency, woken by commits
// that wrote events, else polled.
import type { Worker } from '../../core/workers/worker.js';
import { DEFAULT_CONCURRENCY, type DispatcherOptions, WebhookDeliveries } from './dispatcher.js';
import type { Deps } from '../../app/deps.js';

export type WebhookDeliveriesDeps = Deps<'writer' | 'repos' | 'http'> & { options: DispatcherOptions };

export function webhookDeliveriesWorker(deps: WebhookDeliveriesDeps): Worker {
  const { options } = deps;
  const deliveries = new WebhookDeliveries(deps);
  return {
    name: 'webhook-deliveries',
    runs: 'everywhere',
    intervalMs: options.pollMs ?? 250,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    run: (ctx) => deliveries.deliverNext(ctx),
  };
}
