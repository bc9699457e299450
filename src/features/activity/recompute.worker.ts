// ATC activity recomputed for everyone (contract §16), once a day across instances.
import type { ActivityService } from './activity.service.js';
import type { Worker } from '../../core/workers/worker.js';

export function activityRecomputeWorker({ activity }: { activity: Pick<ActivityService, 'recompute'> }): Worker {
  return {
    name: 'activity-recompute',
    runs: 'once',
    intervalMs: 86_400_000,
    leaseMs: 10 * 60_000,
    run: async (ctx) => {
      const changed = await activity.recompute();
      if (changed > 0) ctx.log.info({ changed }, 'ATC activity recomputed');
    },
  };
}
