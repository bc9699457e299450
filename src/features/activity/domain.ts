// Pure rules of ATC activity (contract §16): an area is active when the hours controlled on its
// positions within the period reach the requirement, or while a grace given by import runs.

const HOUR_MS = 3_600_000;

/** The same instant `months` calendar months later (earlier when negative), clamped to the month's end. */
export function addMonths(ms: number, months: number): number {
  const d = new Date(ms);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, lastDay));
  return d.getTime();
}

export interface ActivityRule {
  /** Hours needed in the period. */
  hours: number;
  periodMonths: number;
  graceMonths: number;
}

export interface ActivityDecision {
  active: boolean;
  hours: number;
  /** When the grace given by import ends (null: none given). */
  graceUntil: number | null;
  reason: 'hours' | 'grace' | 'below';
}

/** The start of the period that counts at `now`. */
export const periodStart = (rule: ActivityRule, now: number): number => addMonths(now, -rule.periodMonths);

export function decide(rule: ActivityRule, controlledMs: number, grantedAt: number | null, now: number): ActivityDecision {
  const hours = controlledMs / HOUR_MS;
  const graceUntil = grantedAt === null ? null : addMonths(grantedAt, rule.graceMonths);
  // Compared in milliseconds: 10 hours of sessions are exactly 36,000,000 ms, never 9.9999… hours.
  if (controlledMs >= Math.round(rule.hours * HOUR_MS)) return { active: true, hours, graceUntil, reason: 'hours' };
  if (graceUntil !== null && graceUntil > now) return { active: true, hours, graceUntil, reason: 'grace' };
  return { active: false, hours, graceUntil, reason: 'below' };
}
