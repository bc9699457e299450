// Webhook subscriptions and the delivery of the outbox's events to them.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { webhooksDisabledMetric } from './metrics.js';
import { webhookDeliveriesWorker } from './deliveries.worker.js';
import { WebhookSubscriptionsService } from './subscriptions.service.js';
import { registerWebhookCommands } from './webhooks.cli.js';

// What other features use of this one.
export { subscriptionTakes } from './predicates.js';

function services(deps: ServiceDeps) {
  return { webhooks: new WebhookSubscriptionsService(deps) };
}

export const webhooks: Feature<ReturnType<typeof services>> = {
  services,
  workers: ({ config, writer, repos, http }, { metrics }) => {
    // The demo delivers no webhooks: nothing leaves the computer (src/app/demo-mode.ts).
    if (config.demo) return [];
    const onDisabled = metrics ? webhooksDisabledMetric(metrics.registry) : undefined;
    return [
      webhookDeliveriesWorker({
        writer,
        repos,
        http,
        options: {
          timeoutMs: config.webhookTimeoutMs,
          retryBaseMs: config.webhookRetryBaseMs,
          maxAttempts: config.webhookMaxAttempts,
          disableAfterMs: config.webhookDisableAfterMs,
          ...(onDisabled ? { onDisabled } : {}),
        },
      }),
    ];
  },
  cli: [registerWebhookCommands],
};
