// Who counts as a member of the division for the allUsers relation (contract §8).
import type { Config } from '../../config.js';

export type Membership = { kind: 'subdivisions'; subdivisions: string[] } | { kind: 'division'; division: string } | { kind: 'everyone' };

export function membershipOf(config: Pick<Config, 'division' | 'subdivisions'>): Membership {
  if (config.subdivisions.length > 0) return { kind: 'subdivisions', subdivisions: [...config.subdivisions] };
  if (config.division !== null) return { kind: 'division', division: config.division };
  return { kind: 'everyone' };
}
