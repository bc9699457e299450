// What the webhook deliveries count beyond the outbox's figures (src/features/operations/outbox-metrics.ts).
import type { Registry } from 'prom-client';
import { promClient } from '../../core/prom-client.js';

/** Counts the webhook subscriptions this instance disabled (WEBHOOK_DISABLE_AFTER_HOURS); returns the counting function. */
export function webhooksDisabledMetric(registry: Registry): () => void {
  const disabled = new (promClient().Counter)({
    name: 'sector_webhooks_disabled_total',
    help: 'Webhook subscriptions disabled by this instance because every attempt failed for WEBHOOK_DISABLE_AFTER_HOURS',
    registers: [registry],
  });
  return () => disabled.inc();
}
