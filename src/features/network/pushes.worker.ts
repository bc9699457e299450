// Pushes of bookings to the network's bookings service (contract §11) from every instance, four at
// once, woken by commits that wrote events, else polled for due retries.
import type { Worker } from '../../core/workers/worker.js';
import type { NetworkPushesService } from './pushes.service.js';

export function networkPushesWorker({ networkPushes }: { networkPushes: Pick<NetworkPushesService, 'pushNext'> }): Worker {
  return {
    name: 'network-pushes',
    runs: 'everywhere',
    intervalMs: 500,
    concurrency: 4,
    run: (ctx) => networkPushes.pushNext(ctx),
  };
}
