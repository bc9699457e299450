// The scheduled jobs of the roster and ATC activity (contract §15, §16): the roster sync, the data
// feed poll and the daily activity recompute. Handlers are the services' own functions; the runner
// runs each once across instances and keeps their metrics.
import type { AppServices } from '../index.js';
import { FeedPollError, pollFeed } from '../feed-poll.js';
import { describeRosterError, syncRoster } from '../roster-sync.js';
import { ReportedJobFailure } from './runner.js';
import type { ScheduledJob } from './types.js';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

type Services = Pick<AppServices, 'config' | 'db' | 'clock' | 'activity' | 'http'>;

export function networkJobs(services: Services): ScheduledJob[] {
  const { config } = services;
  const jobs: ScheduledJob[] = [];
  const membership = { division: config.division, subdivisions: config.subdivisions };
  const hasRoster = membership.division !== null || membership.subdivisions.length > 0;

  if (config.coreApi.key !== null && config.coreApi.rosterSyncHours > 0 && hasRoster) {
    jobs.push({
      name: 'roster-sync',
      intervalMs: Math.round(config.coreApi.rosterSyncHours * HOUR_MS),
      runAtStart: true,
      leaseMs: 30 * 60_000,
      run: async (ctx) => {
        try {
          const r = await syncRoster({ ...services, coreApi: config.coreApi, membership }, { signal: ctx.signal });
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
          throw new ReportedJobFailure(line);
        }
      },
    });
  }

  const feed = config.dataFeed;
  if (feed !== null) {
    // One warning per run of failures (the network down for a day is one line, not 1,440).
    let failing = false;
    jobs.push({
      name: 'data-feed',
      intervalMs: feed.intervalS * 1000,
      runAtStart: true,
      leaseMs: Math.max(2 * feed.intervalS * 1000, 60_000),
      run: async (ctx) => {
        try {
          await pollFeed(
            {
              db: services.db,
              http: services.http,
              feed,
              clock: services.clock,
              onEnded: async (cids) => {
                await services.activity.recompute(cids);
              },
            },
            ctx.signal,
          );
        } catch (err) {
          // Our own failures too (the database): one line per run of failures, never a stack per poll.
          const line =
            err instanceof FeedPollError ? err.message : `data feed poll failed: ${err instanceof Error ? err.message : String(err)}`;
          if (!failing)
            ctx.log.warn({ job: 'data-feed' }, `${line}; sessions continue at the next good poll (logged once until it answers)`);
          failing = true;
          throw new ReportedJobFailure(line);
        }
        if (failing) ctx.log.info({ job: 'data-feed' }, 'data feed answers again');
        failing = false;
      },
    });
  }

  if (config.activity.hours !== null) {
    jobs.push({
      name: 'activity-recompute',
      intervalMs: DAY_MS,
      runAtStart: true,
      leaseMs: 10 * 60_000,
      run: async (ctx) => {
        const changed = await services.activity.recompute();
        if (changed > 0) ctx.log.info({ changed }, 'ATC activity recomputed');
      },
    });
  }
  return jobs;
}
