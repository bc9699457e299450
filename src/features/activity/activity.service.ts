// ATC activity computed from the recorded sessions (contract §16), when ACTIVITY_HOURS is set.
// Recomputed for the controllers whose sessions ended (after a feed poll) and for everyone daily.
import { type ActivityRule, decide, periodStart } from './domain.js';
import type { Deps } from '../../app/deps.js';
import { mailLapsed, mailLapsing } from './notices.js';

export interface ActivityExplanation {
  cid: number;
  area: string;
  /** Hours controlled on the area's positions within the period, two decimals. */
  hours: number;
  /** null when ACTIVITY_HOURS is not set (activity as imported). */
  required_hours: number | null;
  period_start: number | null;
  grace_until: number | null;
  /** What the rule decides now. */
  active: boolean;
  reason: 'hours' | 'grace' | 'below' | 'imported';
  /** What the users list shows now (the last recompute). */
  listed: boolean;
}

export class ActivityService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'config' | 'clock'>) {}

  private get rule(): ActivityRule | null {
    const { hours, periodMonths, graceMonths } = this.deps.config.activity;
    return hours === null ? null : { hours, periodMonths, graceMonths };
  }

  /**
   * Stores the activity the rule decides now for these users (every user: null), writing only
   * what changed. Returns how many (user, area) pairs changed; nothing when activity is not computed.
   */
  async recompute(cids: readonly number[] | null = null): Promise<number> {
    const rule = this.rule;
    if (rule === null) return 0;
    const now = this.deps.clock();
    const rows = await this.deps.repos.activity.rows(periodStart(rule, now), now, cids);
    const changes = rows
      .map((r) => ({
        user_id: r.user_id,
        area_id: r.area_id,
        area: r.area,
        active: decide(rule, r.ms, r.granted_at, now).active ? 1 : 0,
        was: r.active,
      }))
      .filter((r) => r.active !== (r.was ?? 0));
    if (changes.length === 0) return 0;
    await this.deps.writer.write(async (w) => {
      await w.repos.activity.write(changes.map(({ user_id, area_id, active }) => ({ user_id, area_id, active })));
      // Lapsed: active before this recompute, not any more (a first row written inactive is no lapse).
      await mailLapsed(
        w,
        this.site,
        changes.filter((c) => c.was === 1 && c.active === 0),
        rule,
      );
    });
    return changes.length;
  }

  private get site() {
    return { siteName: this.deps.config.siteName, publicUrl: this.deps.config.publicUrl };
  }

  /** Warns the members whose activity lapses within 30 days (the activity-lapse worker); how many were due. */
  async warnLapsing(): Promise<number> {
    const rule = this.rule;
    if (rule === null) return 0;
    return this.deps.writer.write((w) => mailLapsing(w, this.site, rule));
  }

  /** Per user and area: the hours, the requirement, the grace and the result (the `activity` command). */
  async explain(cid: number | null): Promise<ActivityExplanation[]> {
    const rule = this.rule;
    const now = this.deps.clock();
    const from =
      rule === null
        ? periodStart({ hours: 0, periodMonths: this.deps.config.activity.periodMonths, graceMonths: 0 }, now)
        : periodStart(rule, now);
    const rows = await this.deps.repos.activity.rows(from, now, cid === null ? null : [cid]);
    return rows.map((r) => {
      const hours = Math.round((r.ms / 3_600_000) * 100) / 100;
      const listed = r.active === 1;
      if (rule === null) {
        return {
          cid: r.user_id,
          area: r.area,
          hours,
          required_hours: null,
          period_start: null,
          grace_until: null,
          active: listed,
          reason: 'imported',
          listed,
        };
      }
      const d = decide(rule, r.ms, r.granted_at, now);
      return {
        cid: r.user_id,
        area: r.area,
        hours,
        required_hours: rule.hours,
        period_start: from,
        grace_until: d.graceUntil,
        active: d.active,
        reason: d.reason,
        listed,
      };
    });
  }
}
