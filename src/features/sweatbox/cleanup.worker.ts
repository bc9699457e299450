// Past sweatbox sessions are removed 30 days after their end (contract §23), once an hour across instances.
import type { Worker } from '../../core/workers/worker.js';
import type { SweatboxService } from './sweatbox.service.js';

export function sweatboxCleanupWorker({ sweatbox }: { sweatbox: Pick<SweatboxService, 'prune'> }): Worker {
  return {
    name: 'sweatbox-cleanup',
    runs: 'once',
    intervalMs: 3_600_000,
    leaseMs: 10 * 60_000,
    run: async (ctx) => {
      const removed = await sweatbox.prune(ctx.now());
      if (removed > 0) ctx.log.info({ removed }, 'removed past sweatbox sessions');
    },
  };
}
