// Endorsements: issued, shortened, revoked and expired (contract §17).
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { Endorsements } from './endorsements.service.js';
import endorsementsRoutes from './endorsements.routes.js';
import { endorsementExpiryWorker } from './expiry.worker.js';

function services(deps: ServiceDeps) {
  return { endorsements: new Endorsements(deps) };
}

export const endorsements: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [endorsementsRoutes] },
  workers: ({ writer }) => [endorsementExpiryWorker({ writer })],
};
