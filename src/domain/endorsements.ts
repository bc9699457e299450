// The one rule for when an endorsement counts now; the SQL form of it is
// activeEndorsement() in src/repositories/predicates.ts, and the two must agree.

export interface EndorsementPeriod {
  valid_from: number;
  valid_to: number | null;
  /** 0/1 as stored, or a boolean. */
  revoked: number | boolean;
}

/** Active: not revoked, already started, and open-ended or not yet ended (docs/api.md). */
export function isActiveEndorsement(e: EndorsementPeriod, now: number): boolean {
  return !e.revoked && e.valid_from <= now && (e.valid_to === null || e.valid_to > now);
}
