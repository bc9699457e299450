// Webhook deliveries from every instance (contract §10), up to their concurrency, woken by commits
// that wrote events, else polled.
import type { ReadRepositories } from '../../repositories/index.js';
import type { HttpClient } from '../http-client.js';
import type { Worker } from '../workers/worker.js';
import type { Writer } from '../write.js';
import { DEFAULT_CONCURRENCY, type DispatcherOptions, WebhookDeliveries } from './dispatcher.js';

export interface WebhookDeliveriesDeps {
  writer: Writer;
  repos: ReadRepositories;
  http: HttpClient;
  options: DispatcherOptions;
}

export function webhookDeliveriesWorker({ writer, repos, http, options }: WebhookDeliveriesDeps): Worker {
  const deliveries = new WebhookDeliveries(writer, repos, http, options);
  return {
    name: 'webhook-deliveries',
    runs: 'everywhere',
    intervalMs: options.pollMs ?? 250,
    concurrency: options.concurrency ?? DEFAULT_CONCURRENCY,
    run: (ctx) => deliveries.deliverNext(ctx),
  };
}
