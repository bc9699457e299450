// When a member's ATC activity in an area lapses if they do not control (contract §24): the hours
// that keep it within the period run out of the window, and any grace given by import ends.
import { addMonths, type ActivityRule, periodStart } from './domain.js';

const HOUR_MS = 3_600_000;
export const WARNING_WINDOW_MS = 30 * 86_400_000;

export interface Lapse {
  /** The instant the area stops being active unless they control. */
  at: number;
  /** Hours to control before then to be active 30 days from now (at least a tenth). */
  neededHours: number;
}

/** Controlled time of sessions within [from, to). */
function within(sessions: ReadonlyArray<{ start: number; end: number }>, from: number, to: number): number {
  let ms = 0;
  for (const s of sessions) ms += Math.max(0, Math.min(s.end, to) - Math.max(s.start, from));
  return ms;
}

/** When the area lapses without more controlling, or null when it is not active now or not within 30 days. */
export function lapseOf(
  rule: ActivityRule,
  sessions: ReadonlyArray<{ start: number; end: number }>,
  grantedAt: number | null,
  now: number,
): Lapse | null {
  const from = periodStart(rule, now);
  const clipped = sessions
    .map((s) => ({ start: Math.max(s.start, from), end: Math.min(s.end, now) }))
    .filter((s) => s.end > s.start)
    .sort((a, b) => b.end - a.end);
  const required = Math.round(rule.hours * HOUR_MS);
  // The latest start of a window that still holds the required time: walking back from the newest.
  let byHours = -Infinity;
  let acc = 0;
  for (const s of clipped) {
    const len = s.end - s.start;
    if (acc + len >= required) {
      byHours = addMonths(s.end - (required - acc), rule.periodMonths);
      break;
    }
    acc += len;
  }
  const byGrace = grantedAt === null ? -Infinity : addMonths(grantedAt, rule.graceMonths);
  const at = Math.max(byHours, byGrace);
  if (at <= now || at > now + WARNING_WINDOW_MS) return null;
  const kept = within(clipped, addMonths(now + WARNING_WINDOW_MS, -rule.periodMonths), now);
  const neededHours = Math.max(0.1, Math.ceil(((required - kept) / HOUR_MS) * 10) / 10);
  return { at, neededHours };
}
