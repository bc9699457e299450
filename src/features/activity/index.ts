// Who controls: sessions from the network's data feed, who is online now, and ATC hours per area.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { registerActivityCommands } from './activity.cli.js';
import { ActivityService } from './activity.service.js';
import { ActivityBackfillService } from './backfill.service.js';
import { dataFeedWorker } from './data-feed.worker.js';
import { FeedPollService } from './feed.service.js';
import { OnlineService } from './online.service.js';
import onlineRoutes from './online.routes.js';
import { activityLapseWorker, activityRecomputeWorker } from './recompute.worker.js';

// What other features use of this one.
export type { ActivityExplanation, ActivityService } from './activity.service.js';
export { atcActiveUsers } from './predicates.js';

export type { OnlineService };

function services(deps: ServiceDeps) {
  const { config } = deps;
  return {
    activity: new ActivityService(deps),
    backfill: new ActivityBackfillService({
      ...deps,
      coreApi: config.coreApi,
      membership: { division: config.division, subdivisions: config.subdivisions },
      spacingMs: config.coreApi.backfillSpacingMs,
    }),
    /** Who is online now (GET /api/online, the schedule page). */
    online: new OnlineService(deps),
  };
}

export const activity: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [onlineRoutes] },
  workers: (deps, { activity }) => {
    const { config } = deps;
    const feed = config.dataFeed;
    return [
      ...(feed
        ? [
            dataFeedWorker({
              feed,
              poll: new FeedPollService({
                ...deps,
                feed,
                site: { siteName: config.siteName, publicUrl: config.publicUrl },
                onEnded: async (cids) => {
                  await activity.recompute(cids);
                },
              }),
            }),
          ]
        : []),
      ...(config.activity.hours !== null ? [activityRecomputeWorker({ activity }), activityLapseWorker({ activity })] : []),
    ];
  },
  cli: [registerActivityCommands],
};
