// The division's hub on /metrics (contract §22; src/core/metrics.ts takes it as an extension): the
// requests still owed, read from the table on scrape (true across instances), and this instance's
// sends by result.
import type { Registry } from 'prom-client';
import type { MetricsExtension } from '../../core/metrics.js';
import { promClient } from '../../core/prom-client.js';
import type { DivisionApiService } from './division-api.service.js';

const RESULTS = ['sent', 'refused', 'retry'] as const;

export function divisionApiMetrics(countPending: () => Promise<number>, divisionApi: DivisionApiService): MetricsExtension {
  return (registry: Registry) => {
    const { Counter, Gauge } = promClient();
    const registers = [registry];
    new Gauge({
      name: 'sector_division_pending',
      help: "Requests to the division's hub not yet sent (refused ones excluded), across every instance",
      registers,
      async collect() {
        this.set(await countPending());
      },
    });
    const requests = new Counter({
      name: 'sector_division_requests_total',
      help: "Requests to the division's hub sent by this instance, by result: sent, refused (waits for an operator), retry (failed, tried again later)",
      labelNames: ['result'],
      registers,
    });
    for (const result of RESULTS) requests.inc({ result }, 0);
    divisionApi.onResult((result) => requests.inc({ result }));
  };
}
