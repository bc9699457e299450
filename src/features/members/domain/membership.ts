// Who counts as a member of the division for the allUsers relation (docs/api.md).

export type Membership = { kind: 'subdivisions'; subdivisions: string[] } | { kind: 'division'; division: string } | { kind: 'everyone' };

/** The division's own settings (DIVISION, SUBDIVISIONS). */
export interface MembershipSettings {
  division: string | null;
  subdivisions: readonly string[];
}

export function membershipOf(config: MembershipSettings): Membership {
  if (config.subdivisions.length > 0) return { kind: 'subdivisions', subdivisions: [...config.subdivisions] };
  if (config.division !== null) return { kind: 'division', division: config.division };
  return { kind: 'everyone' };
}

/** Whether a user is a member of the division, as membershipOf's result counts them. */
export function isMember(m: Membership, user: { division: string | null; subdivision: string | null }): boolean {
  if (m.kind === 'subdivisions') return user.subdivision !== null && m.subdivisions.includes(user.subdivision);
  if (m.kind === 'division') return user.division === m.division;
  return true;
}
