// The daily reconcile with the division's hub (contract §22), once across instances under the
// `division-sync` lease, which `division:sync` takes too: one run at a time, whoever started it.
import { ReportedWorkerFailure, type Worker } from '../../core/workers/worker.js';
import { DIVISION_SYNC_LEASE, DivisionSyncError, type DivisionSyncService } from './division-sync.service.js';

export const DAY_MS = 86_400_000;

export function divisionSyncWorker({ divisionSync }: { divisionSync: Pick<DivisionSyncService, 'sync'> }, leaseMs: number): Worker {
  return {
    name: DIVISION_SYNC_LEASE,
    runs: 'once',
    intervalMs: DAY_MS,
    leaseMs,
    run: async (ctx) => {
      try {
        const r = await divisionSync.sync({ signal: ctx.signal, lease: ctx.lease });
        ctx.log.info(
          {
            roster_added: r.roster.added.length,
            roster_removed: r.roster.removed.length,
            tiers_added: r.tiers.added.length,
            tiers_removed: r.tiers.removed.length,
            skipped: r.skipped.length,
          },
          "division's hub reconciled",
        );
      } catch (err) {
        if (!(err instanceof DivisionSyncError)) throw err;
        ctx.log.warn({ job: DIVISION_SYNC_LEASE }, `division sync failed: ${err.message}; tried again at the next interval`);
        throw new ReportedWorkerFailure(err.message);
      }
    },
  };
}
