// Sends the requests owed to the division's hub (contract §22): one instance at a time under the
// lease, so requests about one member go one after another in commit order.
import type { Worker } from '../../core/workers/worker.js';
import type { DivisionApiService } from './division-api.service.js';

export function divisionApiWorker({ divisionApi }: { divisionApi: Pick<DivisionApiService, 'run'> }, timeoutMs: number): Worker {
  return {
    name: 'division-api',
    runs: 'once',
    intervalMs: 1000,
    // A run holds the lease through its slowest request (a remove lists, then deletes).
    leaseMs: timeoutMs * 3 + 5000,
    run: (ctx) => divisionApi.run(ctx),
  };
}
