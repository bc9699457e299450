// When an endorsement counts, as pure functions of its dates and "now" (epoch milliseconds).

export interface EndorsementTimes {
  valid_from: number;
  valid_to: number | null;
  revoked: number | boolean;
  revoked_at: number | null;
}

import { isActiveEndorsement } from './domain.js';

export { isActiveEndorsement };

/** How far back the deprecated solo/s1 lists still show ended endorsements. */
export const RECENTLY_ENDED_MS = 14 * 24 * 60 * 60 * 1000;

/** When an endorsement stopped counting (revocation or end date), or null; revoked at an unknown time counts as long past. */
export function endedAt(e: EndorsementTimes, now: number): number | null {
  if (e.revoked) {
    if (e.revoked_at === null) return Number.NEGATIVE_INFINITY;
    return e.valid_to !== null && e.valid_to < e.revoked_at ? e.valid_to : e.revoked_at;
  }
  return e.valid_to !== null && e.valid_to <= now ? e.valid_to : null;
}

/** Deprecated solo/s1 lists: active ones, plus those that ended within the last 14 days. */
export function isListedAsRecent(e: EndorsementTimes, now: number): boolean {
  if (isActiveEndorsement(e, now)) return true;
  const ended = endedAt(e, now);
  return ended !== null && ended <= now && ended > now - RECENTLY_ENDED_MS;
}

/** The earliest moment a list showing recent endorsements may include: anything ending before is out. */
export function recentCutoff(now: number): number {
  return now - RECENTLY_ENDED_MS;
}

export function isExpired(e: Pick<EndorsementTimes, 'valid_to'>, now: number): boolean {
  return e.valid_to !== null && e.valid_to <= now;
}
