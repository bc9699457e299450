// The lists of the deprecated endpoints (docs/api.md), kept for existing integrations: each is
// read and presented whole on every request; GET /api/users replaces them.
import {
  presentExaminers,
  presentFacilityHolders,
  presentLegacyRoles,
  presentTrainingEndorsements,
  presentVisiting,
} from './deprecated.presenter.js';
import type { ExaminerArea, FacilityHolder, LegacyRoles, LegacyTrainingEndorsement, VisitingEndorsement } from './deprecated.schema.js';
import type { Deps } from '../../app/deps.js';

export class DeprecatedService {
  constructor(private readonly deps: Deps<'repos' | 'clock'>) {}

  async roles(): Promise<LegacyRoles> {
    return presentLegacyRoles(await this.deps.repos.deprecated.roleAssignments());
  }

  async facilityHolders(): Promise<FacilityHolder[]> {
    return presentFacilityHolders(await this.deps.repos.deprecated.facilityHolders(this.deps.clock()));
  }

  /** Solo or S1 endorsements, listed and marked expired at one instant. */
  async trainingEndorsements<T extends 'solo' | 's1'>(type: T): Promise<Array<LegacyTrainingEndorsement<Uppercase<T>>>> {
    const now = this.deps.clock();
    return presentTrainingEndorsements(type, await this.deps.repos.deprecated.trainingEndorsements(type, now), now);
  }

  async examiners(): Promise<ExaminerArea[]> {
    return presentExaminers(await this.deps.repos.deprecated.examiners(this.deps.clock()));
  }

  async visiting(): Promise<VisitingEndorsement[]> {
    return presentVisiting(await this.deps.repos.deprecated.visiting(this.deps.clock()));
  }
}
