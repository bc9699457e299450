// The division's roster from the network's API (roster:sync and its daily worker).
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { registerRosterCommands } from './roster.cli.js';
import { RosterSyncService } from './roster-sync.service.js';
import { rosterSyncWorker } from './roster-sync.worker.js';

// What other features use of this one.
export type { RosterSyncDeps } from './roster-sync.service.js';

export type { RosterSyncService };

function services(deps: ServiceDeps) {
  return {
    roster: new RosterSyncService({
      ...deps,
      coreApi: deps.config.coreApi,
      membership: { division: deps.config.division, subdivisions: deps.config.subdivisions },
    }),
  };
}

export const roster: Feature<ReturnType<typeof services>> = {
  services,
  workers: ({ config }, { roster }) => {
    const hasRoster = config.division !== null || config.subdivisions.length > 0;
    return config.coreApi.key !== null && config.coreApi.rosterSyncHours > 0 && hasRoster ? [rosterSyncWorker({ config, roster })] : [];
  },
  cli: [registerRosterCommands],
};
