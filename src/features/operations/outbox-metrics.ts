// The outbox figures of the events (docs/events.md) and the network sync (docs/network-sync.md) as Prometheus metrics:
// backlogs read from the tables on scrape (true across instances), push outcomes counted here.
import type { Registry } from 'prom-client';
import { promClient } from '../../core/prom-client.js';
import type { OutboxFigures, OutboxFiguresRepository } from './outbox-figures.repository.js';
import type { MetricsExtension } from '../../core/metrics.js';
import type { NetworkPushesService } from '../network/index.js';

const DELIVERY_STATUSES = ['pending', 'delivering', 'succeeded', 'failed'] as const;
const PUSH_STATUSES = ['pending', 'done', 'refused'] as const;
const PUSH_OUTCOMES = ['done', 'refused', 'retry', 'rejected_key', 'lost'] as const;

export function outboxMetrics(
  figures: OutboxFiguresRepository,
  clock: () => number,
  pusher: NetworkPushesService | null,
): MetricsExtension {
  return (registry: Registry) => {
    const { Counter, Gauge } = promClient();
    const registers = [registry];
    // One read per scrape, shared by the gauges below.
    let current: Promise<OutboxFigures> | undefined;
    const read = (): Promise<OutboxFigures> => {
      current ??= figures.read().finally(() => setImmediate(() => (current = undefined)));
      return current;
    };
    new Gauge({
      name: 'sector_events_pending',
      help: 'Webhook deliveries not yet made (pending or under way), across every instance',
      registers,
      async collect() {
        const f = await read();
        this.set((f.deliveries.pending ?? 0) + (f.deliveries.delivering ?? 0));
      },
    });
    new Gauge({
      name: 'sector_events_oldest_pending_age_seconds',
      help: 'Age of the oldest webhook delivery not yet made (0 when none): the outbox lag',
      registers,
      async collect() {
        const f = await read();
        this.set(f.oldestOpenDeliveryAt === null ? 0 : Math.max(0, (clock() - f.oldestOpenDeliveryAt) / 1000));
      },
    });
    new Gauge({
      name: 'sector_webhook_deliveries',
      help: 'Webhook deliveries kept (within retention), by status',
      labelNames: ['status'],
      registers,
      async collect() {
        const f = await read();
        for (const status of DELIVERY_STATUSES) this.set({ status }, f.deliveries[status] ?? 0);
      },
    });
    new Gauge({
      name: 'sector_network_pushes',
      help: 'Bookings by the state of their push to the network (pending, done, refused)',
      labelNames: ['status'],
      registers,
      async collect() {
        const f = await read();
        for (const status of PUSH_STATUSES) this.set({ status }, f.pushes[status] ?? 0);
      },
    });
    new Gauge({
      name: 'sector_network_oldest_pending_push_age_seconds',
      help: 'How long the longest-waiting booking has been waiting to be pushed to the network (0 when none): pushes retry without limit, so alert on this',
      registers,
      async collect() {
        const f = await read();
        this.set(f.oldestPendingPushAt === null ? 0 : Math.max(0, (clock() - f.oldestPendingPushAt) / 1000));
      },
    });
    if (pusher) {
      const pushes = new Counter({
        name: 'sector_network_pushes_total',
        help: 'Push attempts to the network made by this instance, by outcome',
        labelNames: ['outcome'],
        registers,
      });
      for (const outcome of PUSH_OUTCOMES) pushes.inc({ outcome }, 0);
      pusher.onOutcome((o) => pushes.inc({ outcome: o.outcome }));
    }
  };
}
