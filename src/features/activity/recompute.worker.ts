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

/** Members whose activity lapses within 30 days warned (contract §24), hourly once across instances; each lapse date once. */
export function activityLapseWorker({ activity }: { activity: Pick<ActivityService, 'warnLapsing'> }): Worker {
  return {
    name: 'activity-lapse-warning',
    runs: 'once',
    intervalMs: 3_600_000,
    leaseMs: 10 * 60_000,
    run: async () => {
      await activity.warnLapsing();
    },
  };
}
