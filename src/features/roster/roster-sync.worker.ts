// The roster sync from the network (contract §15), once across instances every ROSTER_SYNC_HOURS;
// `roster:sync` takes the same lease: one run at a time, whichever started it.
import type { Config } from '../../config.js';
import { ROSTER_LEASE } from './roster-run.js';
import { describeRosterError, rosterLeaseMs, type RosterSyncService } from './roster-sync.service.js';
import { ReportedWorkerFailure, type Worker } from '../../core/workers/worker.js';

export function rosterSyncWorker({ config, roster }: { config: Pick<Config, 'coreApi'>; roster: Pick<RosterSyncService, 'sync'> }): Worker {
  return {
    name: ROSTER_LEASE,
    runs: 'once',
    intervalMs: Math.round(config.coreApi.rosterSyncHours * 3_600_000),
    leaseMs: rosterLeaseMs(config.coreApi),
    run: async (ctx) => {
      try {
        const r = await roster.sync({ signal: ctx.signal, lease: ctx.lease });
        ctx.log.info(
          { roster: r.roster, created: r.created.length, updated: r.updated.length, gone: r.gone.length, skipped: r.skipped.length },
          'roster synced from the network',
        );
        if (r.skipped.length > 0) {
          ctx.log.warn(
            { skipped: r.skipped.slice(0, 20) },
            `roster sync left ${r.skipped.length} member(s) as they were (rating not in the list)`,
          );
        }
      } catch (err) {
        const line = describeRosterError(err);
        if (line === null) throw err;
        ctx.log.warn({ job: 'roster-sync' }, `roster sync failed: ${line}; retried at the next interval`);
        throw new ReportedWorkerFailure(line);
      }
    },
  };
}
