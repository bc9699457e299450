// The member's settings (contract §24): which mail they get and the look of the pages, kept in the
// database; and everything Sector holds about them, as one JSON document (GET /my/data).
import { isoMicros, isoMicrosOrNull } from '../../core/domain/time.js';
import type { Deps } from '../../app/deps.js';
import { type Look, MAIL_KINDS, type MailKind, type MemberSettings, settingsFrom } from '../notices/index.js';
import { ratingCode } from '../members/domain/ratings.js';
import { type AuditActor, userTarget } from '../audit/domain/index.js';

type MemberActor = Extract<AuditActor, { kind: 'member' }>;

export class SettingsService {
  constructor(private readonly deps: Deps<'writer' | 'repos' | 'clock'>) {}

  async of(cid: number): Promise<MemberSettings> {
    const { look, choices } = await this.deps.repos.notices.settingsRows(cid);
    return settingsFrom(look, choices);
  }

  /**
   * Saves the look and every kind at once (a box not ticked: off); the training kind's interest
   * request stays on regardless. Audited as `settings.changed` with the changed choices only.
   */
  async save(actor: MemberActor, look: Look, on: ReadonlySet<MailKind>): Promise<MemberSettings> {
    const settings: MemberSettings = {
      look,
      mail: Object.fromEntries(MAIL_KINDS.map((k) => [k, on.has(k)])) as Record<MailKind, boolean>,
    };
    await this.deps.writer.write(async (w) => {
      await w.repos.notices.lockMember(actor.cid);
      const stored = await w.repos.notices.settingsRows(actor.cid);
      const before = settingsFrom(stored.look, stored.choices);
      await w.repos.notices.saveSettings(actor.cid, settings, w.at);
      const changed = [
        ...(before.look === settings.look ? [] : (['look'] as const)),
        ...MAIL_KINDS.filter((k) => before.mail[k] !== settings.mail[k]),
      ];
      if (changed.length === 0) return;
      const pick = (s: MemberSettings) => Object.fromEntries(changed.map((k) => [k, k === 'look' ? s.look : s.mail[k]]));
      await w.audit(actor, [{ action: 'settings.changed', target: userTarget(actor.cid), before: pick(before), after: pick(settings) }]);
    });
    return settings;
  }

  /** The member's data: every kind of row about them, times as ISO text. */
  async data(cid: number): Promise<Record<string, unknown>> {
    const d = await this.deps.repos.privacy.memberData(cid);
    const settings = settingsFrom(d.look?.look, d.choices);
    const iso = (ms: number | null | undefined) => isoMicrosOrNull(ms ?? null);
    return {
      generated_at: isoMicros(this.deps.clock()),
      profile: d.profile && {
        cid: d.profile.id,
        first_name: d.profile.first_name,
        last_name: d.profile.last_name,
        email: d.profile.email,
        rating: ratingCode(d.profile.rating),
        region: d.profile.region,
        division: d.profile.division,
        subdivision: d.profile.subdivision,
        created_at: iso(d.profile.created_at),
        updated_at: iso(d.profile.updated_at),
        last_login_at: iso(d.profile.last_login_at),
      },
      settings: { look: settings.look, mail: settings.mail },
      bookings: d.bookings.map((b) => ({
        ...b,
        time_start: iso(b.time_start),
        time_end: iso(b.time_end),
        created_at: iso(b.created_at),
        updated_at: iso(b.updated_at),
      })),
      trainings: d.trainings.map((t) => ({
        ...t,
        created_at: iso(t.created_at),
        started_at: iso(t.started_at),
        closed_at: iso(t.closed_at),
        ratings: d.ratings.filter((r) => r.training_id === t.id).map((r) => ratingCode(r.rating)),
        reports: d.reports
          .filter((r) => r.training_id === t.id)
          .map(({ training_id: _, ...r }) => ({ ...r, created_at: iso(r.created_at) })),
        examinations: d.examinations.filter((x) => x.training_id === t.id).map(({ training_id: _, ...x }) => x),
      })),
      endorsements: d.endorsements.map((e) => ({
        ...e,
        valid_from: iso(e.valid_from),
        valid_to: iso(e.valid_to),
        revoked_at: iso(e.revoked_at),
        created_at: iso(e.created_at),
        areas: d.endorsementAreas.filter((a) => a.endorsement_id === e.id).map((a) => a.name),
        positions: d.endorsementPositions.filter((p) => p.endorsement_id === e.id).map((p) => p.callsign),
      })),
      roles: d.roles,
      controlling_sessions: d.sessions.map((s) => ({
        ...s,
        logon_time: iso(s.logon_time),
        last_seen: iso(s.last_seen),
        ended_at: iso(s.ended_at),
      })),
      activity: d.activity.map((a) => ({ ...a, granted_at: iso(a.granted_at) })),
      feedback_sent: d.feedback.map((f) => ({ ...f, created_at: iso(f.created_at) })),
      sweatbox_sessions: d.sweatbox.map((x) => ({
        ...x,
        time_start: iso(x.time_start),
        time_end: iso(x.time_end),
        created_at: iso(x.created_at),
      })),
      votes: d.votes,
      tasks: d.tasks.map((t) => ({
        ...t,
        rating: t.rating === null ? null : ratingCode(t.rating),
        created_at: iso(t.created_at),
        closed_at: iso(t.closed_at),
      })),
      notifications_sent: d.notices.map((n) => ({ key: n.key, sent_at: iso(n.sent_at) })),
      audit_entries: d.audit.map((a) => ({
        at: iso(a.at),
        action: a.action,
        target: a.target,
        before: a.before === null ? null : (JSON.parse(a.before) as unknown),
        after: a.after === null ? null : (JSON.parse(a.after) as unknown),
      })),
    };
  }
}
