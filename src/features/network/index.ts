// Pushing bookings to the network's bookings service (network sync), and its status.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { registerNetworkCommands } from './network.cli.js';
import { NetworkPushesService } from './pushes.service.js';
import { networkPushesWorker } from './pushes.worker.js';
import { NetworkStatusService } from './status.service.js';

// What other features use of this one.
export type { NetworkPushesService } from './pushes.service.js';
export { pendingPush } from './predicates.js';

function services(deps: ServiceDeps) {
  const { config } = deps;
  const division = { division: config.division, subdivisions: config.subdivisions };
  return {
    /** Pushes bookings to the network's bookings service (a worker); null when sync is not configured. */
    networkPushes: config.network ? new NetworkPushesService({ ...deps, network: config.network, division }) : null,
    networkStatus: new NetworkStatusService(deps),
  };
}

export const network: Feature<ReturnType<typeof services>> = {
  services,
  workers: (_deps, { networkPushes }) => (networkPushes ? [networkPushesWorker({ networkPushes })] : []),
  cli: [registerNetworkCommands],
};
