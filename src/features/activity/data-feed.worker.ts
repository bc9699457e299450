// The network's data feed polled (contract §16), once across instances every DATA_FEED_INTERVAL_S.
import type { DataFeedConfig } from '../../config.js';
import { type FeedPollService, FeedPollError } from './feed.service.js';
import { ReportedWorkerFailure, type Worker } from '../../core/workers/worker.js';

export function dataFeedWorker({ feed, poll }: { feed: Pick<DataFeedConfig, 'intervalS'>; poll: Pick<FeedPollService, 'poll'> }): Worker {
  // One warning per run of failures (the network down for a day is one line, not 1,440).
  let failing = false;
  return {
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
        const off = err instanceof FeedPollError && err.unreachable ? '; without internet, DATA_FEED_URL=off turns the data feed off' : '';
        if (!failing)
          ctx.log.warn({ job: 'data-feed' }, `${line}; sessions continue at the next good poll (logged once until it responds)${off}`);
        failing = true;
        throw new ReportedWorkerFailure(line);
      }
      if (failing) ctx.log.info({ job: 'data-feed' }, 'data feed responds again');
      failing = false;
    },
  };
}
