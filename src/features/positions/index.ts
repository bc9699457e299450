// Control positions: the public list, and positions added, changed and removed by staff (contract §17).
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { PositionsService } from './positions.service.js';
import positionsRoutes from './positions.routes.js';
import staffPositionsRoutes from './staff.routes.js';

function services(deps: ServiceDeps) {
  return { positions: new PositionsService(deps) };
}

export const positions: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [positionsRoutes], staff: [staffPositionsRoutes] },
};
