// Endorsements: issued, shortened, revoked and expired (contract §17).
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { EndorsementsService } from './endorsements.service.js';
import endorsementsRoutes from './endorsements.routes.js';
import { endorsementExpiryWorker } from './expiry.worker.js';
import { soloWarningWorker } from './solo-warning.worker.js';
import { divisionQuestions } from '../division-api/index.js';

// What other features use of this one.
export { activeEndorsement } from './predicates.js';
export { endorsementsPage } from './staff-page.view.js';
export { presentEndorsement } from './endorsements.presenter.js';
export type { Endorsement } from './endorsements.schema.js';
export { endorsementName } from './notices.js';

function services(deps: ServiceDeps) {
  return { endorsements: new EndorsementsService({ ...deps, hub: divisionQuestions(deps) }) };
}

export const endorsements: Feature<ReturnType<typeof services>> = {
  services,
  routes: { api: [endorsementsRoutes] },
  workers: ({ writer, config }) => [endorsementExpiryWorker({ writer, config }), soloWarningWorker({ writer, config })],
};
