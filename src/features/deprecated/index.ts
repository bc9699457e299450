// The seed's deprecated lists (/api/roles, /api/endorsements/…), kept for old clients.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { DeprecatedService } from './deprecated.service.js';
import deprecatedRoutes from './deprecated.routes.js';

function services(deps: ServiceDeps) {
  return { deprecated: new DeprecatedService(deps) };
}

export const deprecated: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [deprecatedRoutes] },
};
