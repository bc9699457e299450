// Facilities with tiers (contract §22): a facility is a name positions require; Administrators give
// it a tier (T1, T2 or none) and a description, on the facilities page or through the API.
import type { AuditActor } from '../../core/domain/audit.js';
import { type FieldErrors, ValidationError } from '../../core/domain/errors.js';
import { authorize } from '../roles/domain.js';
import type { Deps } from '../../app/deps.js';
import { type Facility, FACILITY_DESCRIPTION_MAX, FACILITY_TIERS } from './facilities.schema.js';
import type { FacilityRow } from './facilities.repository.js';

export interface FacilityInput {
  tier: string | null;
  /** Undefined keeps the stored one. */
  description?: string | null;
}

const present = (f: { name: string; tier: Facility['tier']; description: string | null }): Facility => ({
  name: f.name,
  tier: f.tier,
  description: f.description,
});

export class FacilitiesService {
  constructor(private readonly deps: Deps<'writer' | 'repos'>) {}

  async list(): Promise<Facility[]> {
    return (await this.deps.repos.facilities.list()).map(present);
  }

  /** Sets the facility's tier and description; `created` when the name was not a facility before. */
  put(name: string, input: FacilityInput, actor: AuditActor): Promise<{ created: boolean; facility: Facility }> {
    return this.deps.writer.write(async (w) => {
      if (actor.kind === 'member') authorize(await w.repos.roles.staffMember(actor.cid), 'facilities', {});
      const errors: FieldErrors = {};
      const trimmed = name.trim();
      if (trimmed.length === 0 || trimmed.length > 100) errors.name = ['The name must be 1 to 100 characters.'];
      const tier = input.tier === null || input.tier.trim() === '' ? null : input.tier.trim().toUpperCase();
      if (tier !== null && !(FACILITY_TIERS as readonly string[]).includes(tier)) errors.tier = ['The tier must be T1, T2 or none (null).'];
      const description = input.description === undefined ? undefined : input.description?.trim() || null;
      if (description && description.length > FACILITY_DESCRIPTION_MAX)
        errors.description = [`The description must be at most ${FACILITY_DESCRIPTION_MAX} characters.`];
      if (Object.keys(errors).length > 0) throw new ValidationError(errors);
      // Insert first, else lock the stored row: two PUTs of one new name never both create it.
      const fresh = { name: trimmed, tier: tier as Facility['tier'], description: description ?? null, updated_at: w.at };
      const inserted = await w.repos.facilities.insertNew(fresh);
      let before: FacilityRow | undefined;
      if (inserted) {
        before = (await w.repos.facilities.required(trimmed)) ? { name: trimmed, tier: null, description: null, stored: false } : undefined;
      } else {
        before = await w.repos.facilities.storedForUpdate(trimmed);
      }
      const after = {
        name: trimmed,
        tier: tier as Facility['tier'],
        description: description === undefined ? (before?.description ?? null) : description,
      };
      if (!inserted) await w.repos.facilities.update({ ...after, updated_at: w.at });
      await w.audit(actor, [
        {
          action: before ? 'facility.updated' : 'facility.created',
          target: `facility:${trimmed}`,
          before: before ? present(before) : null,
          after,
        },
      ]);
      return { created: before === undefined, facility: present(after) };
    });
  }
}
