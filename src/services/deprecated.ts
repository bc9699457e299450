// The lists of the deprecated endpoints (docs/api.md), kept for existing integrations: each is
// read and presented whole on every request; GET /api/users replaces them.
import type { Clock } from '../domain/time.js';
import {
  presentExaminers,
  presentFacilityHolders,
  presentLegacyRoles,
  presentTrainingEndorsements,
  presentVisiting,
} from '../presenters/deprecated.js';
import type { DeprecatedRepository } from '../repositories/deprecated.js';
import type { ExaminerArea, FacilityHolder, LegacyRoles, LegacyTrainingEndorsement, VisitingEndorsement } from '../schemas/deprecated.js';

export class DeprecatedLists {
  constructor(
    private readonly repo: DeprecatedRepository,
    private readonly clock: Clock,
  ) {}

  async roles(): Promise<LegacyRoles> {
    return presentLegacyRoles(await this.repo.roleAssignments());
  }

  async facilityHolders(): Promise<FacilityHolder[]> {
    return presentFacilityHolders(await this.repo.facilityHolders(this.clock()));
  }

  /** Solo or S1 endorsements, listed and marked expired at one instant. */
  async trainingEndorsements<T extends 'solo' | 's1'>(type: T): Promise<Array<LegacyTrainingEndorsement<Uppercase<T>>>> {
    const now = this.clock();
    return presentTrainingEndorsements(type, await this.repo.trainingEndorsements(type, now), now);
  }

  async examiners(): Promise<ExaminerArea[]> {
    return presentExaminers(await this.repo.examiners(this.clock()));
  }

  async visiting(): Promise<VisitingEndorsement[]> {
    return presentVisiting(await this.repo.visiting(this.clock()));
  }
}
