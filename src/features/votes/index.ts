// Votes (contract §23): created by a division-wide Administrator, one secret ballot per eligible member.
import type { ServiceDeps } from '../../app/deps.js';
import type { Feature } from '../../app/feature.js';
import { votesClosingWorker } from './closing.worker.js';
import voteMemberRoutes from './member.routes.js';
import votesStaffRoutes from './staff.routes.js';
import { VotesService } from './votes.service.js';

// What other features use of this one (the member's home lists their open votes).
export type { MemberVote, VotesService } from './votes.service.js';
export { closesText } from './views/parts.js';

function services(deps: ServiceDeps) {
  return { votes: new VotesService(deps) };
}

export const votes: Feature<ReturnType<typeof services>> = {
  services,
  routes: { members: [voteMemberRoutes], staff: [votesStaffRoutes] },
  workers: (_deps, { votes }) => [votesClosingWorker({ votes })],
};
// The limits an import of votes checks (src/features/transfer).
export { ELIGIBILITIES, OPTION_MAX, OPTIONS_MAX, OPTIONS_MIN, QUESTION_MAX } from './domain.js';
