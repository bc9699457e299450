// The workers of the roster and ATC activity (contract §15, §16), each once across instances: the
// roster sync, the data feed poll and the daily activity recompute. Handlers are the services' own
// functions.
import type { Config } from '../../config.js';
import type { ActivityService } from '../activity.js';
import { type FeedPoll, FeedPollError } from '../feed.js';
import { describeRosterError, rosterLeaseMs, type RosterSync } from '../roster-sync.js';
import { ROSTER_LEASE } from '../roster-run.js';
import { ReportedWorkerFailure, type Worker } from './worker.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

interface Services {
  config: Config;
  roster: RosterSync;
  /** Null when DATA_FEED_URL=off. */
  feed: FeedPoll | null;
  activity: ActivityService;
}

export function networkWorkers(services: Services): Worker[] {
  const { config } = services;
  const jobs: Worker[] = [];
  const membership = { division: config.division, subdivisions: config.subdivisions };
  const hasRoster = membership.division !== null || membership.subdivisions.length > 0;

  if (config.coreApi.key !== null && config.coreApi.rosterSyncHours > 0 && hasRoster) {
    jobs.push({
      name: ROSTER_LEASE,
      runs: 'once',
      intervalMs: Math.round(config.coreApi.rosterSyncHours * HOUR_MS),
      // `roster:sync` takes the same lease: one run at a time, whichever started it.
      leaseMs: rosterLeaseMs(config.coreApi),
      run: async (ctx) => {
        try {
          const r = await services.roster.sync({ signal: ctx.signal, lease: ctx.lease });
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
    });
  }

  const feed = config.dataFeed;
  const poll = services.feed;
  if (feed !== null && poll !== null) {
    // One warning per run of failures (the network down for a day is one line, not 1,440).
    let failing = false;
    jobs.push({
      name: 'data-feed',
      runs: 'once',
      intervalMs: feed.intervalS * 1000,
      leaseMs: Math.max(2 * feed.intervalS * 1000, 60_000),
      run: async (ctx) => {
        try {
          await poll.poll(ctx.signal);
        } catch (err) {
          // Our own failures too (the database): one line per run of failures, never a stack per poll.
          const line =
            err instanceof FeedPollError ? err.message : `data feed poll failed: ${err instanceof Error ? err.message : String(err)}`;
          // Often a machine without internet (a laptop trying Sector): say how to turn the poll off.
          const off =
            err instanceof FeedPollError && err.unreachable ? '; without internet, DATA_FEED_URL=off turns the data feed off' : '';
          if (!failing)
            ctx.log.warn({ job: 'data-feed' }, `${line}; sessions continue at the next good poll (logged once until it responds)${off}`);
          failing = true;
          throw new ReportedWorkerFailure(line);
        }
        if (failing) ctx.log.info({ job: 'data-feed' }, 'data feed responds again');
        failing = false;
      },
    });
  }

  if (config.activity.hours !== null) {
    jobs.push({
      name: 'activity-recompute',
      runs: 'once',
      intervalMs: DAY_MS,
      leaseMs: 10 * 60_000,
      run: async (ctx) => {
        const changed = await services.activity.recompute();
        if (changed > 0) ctx.log.info({ changed }, 'ATC activity recomputed');
      },
    });
  }
  return jobs;
}
