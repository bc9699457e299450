// Control positions: the public list, and positions added, changed and removed by staff (contract §17);
// facilities (the names positions require) with their tiers (§22).
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { FacilitiesService } from './facilities.service.js';
import facilitiesRoutes from './facilities.routes.js';
import facilitiesPagesRoutes from './facilities-pages.routes.js';
import { PositionsService } from './positions.service.js';
import positionsRoutes from './positions.routes.js';
import staffPositionsRoutes from './staff.routes.js';

function services(deps: ServiceDeps) {
  return { positions: new PositionsService(deps), facilities: new FacilitiesService(deps) };
}

export { FACILITY_DESCRIPTION_MAX, FACILITY_TIERS } from './facilities.schema.js';

export const positions: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [positionsRoutes, facilitiesRoutes], staff: [staffPositionsRoutes, facilitiesPagesRoutes] },
};
