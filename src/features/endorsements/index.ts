// Endorsements: issued, shortened, revoked and expired (contract §17).
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { EndorsementsService } from './endorsements.service.js';
import endorsementsRoutes from './endorsements.routes.js';
import { endorsementExpiryWorker } from './expiry.worker.js';
import { soloWarningWorker } from './solo-warning.worker.js';
import type { TheoryExamCheck } from './endorsements.service.js';

// What other features use of this one.
export { activeEndorsement } from './predicates.js';
export { endorsementsPage } from './staff-page.view.js';
export { presentEndorsement } from './endorsements.presenter.js';
export type { Endorsement } from './endorsements.schema.js';
export { endorsementName } from './notices.js';

/** The hub's live question (the division-api feature, built before this one); null when DIVISION_API is unset. */
type Needs = { divisionQuestions: TheoryExamCheck | null };

function services(deps: ServiceDeps, before: Needs) {
  return { endorsements: new EndorsementsService({ ...deps, hub: before.divisionQuestions }) };
}

export const endorsements: Feature<ReturnType<typeof services>, Needs> = {
  services,
  routes: { api: [endorsementsRoutes] },
  workers: ({ writer, config }) => [endorsementExpiryWorker({ writer, config }), soloWarningWorker({ writer, config })],
};
