// The bookings' own figure on /metrics (src/core/metrics.ts takes it as an extension).
import type { Registry } from 'prom-client';
import type { MetricsExtension } from '../../core/metrics.js';
import { promClient } from '../../core/prom-client.js';

/** `sector_bookings_live`: bookings not deleted, counted when scraped. */
export function liveBookingsMetric(countLive: () => Promise<number>): MetricsExtension {
  return (registry: Registry) => {
    new (promClient().Gauge)({
      name: 'sector_bookings_live',
      help: 'Bookings not deleted (counted when scraped)',
      registers: [registry],
      async collect() {
        this.set(await countLive());
      },
    });
  };
}
