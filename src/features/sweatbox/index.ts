// The sweatbox (contract §23): sessions on the training server's positions, apart from bookings.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { sweatboxCleanupWorker } from './cleanup.worker.js';
import sweatboxRoutes from './sweatbox.routes.js';
import { SweatboxService } from './sweatbox.service.js';
import sweatboxStaffRoutes from './staff.routes.js';

function services(deps: ServiceDeps) {
  return { sweatbox: new SweatboxService(deps) };
}

export const sweatbox: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [sweatboxRoutes], staff: [sweatboxStaffRoutes] },
  workers: (_deps, { sweatbox }) => [sweatboxCleanupWorker({ sweatbox })],
};
// The limits an import of sessions checks (src/features/transfer).
export { NOTES_MAX, SESSION_MAX_MS, SESSION_MIN_MS } from './domain.js';
