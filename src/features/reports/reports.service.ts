// Staff reports and statistics (contract §25): who may read which areas, and each report's figures
// from the stored data (no counters kept beside it). The arithmetic is in ./domain.ts.
import { authorize, mayDo } from '../roles/domain.js';
import type { StaffView } from '../roles/index.js';
import { ForbiddenError, NotFoundError } from '../../core/domain/errors.js';
import { DAY_MS, daysBetween, graceCutoff, lastTwelveMonths, median, type Month, passRate, trainingFor } from './domain.js';
import type { AuditFilter, StoredAuditEntry } from '../audit/index.js';
import type { Deps } from '../../app/deps.js';
import type { AccessReport, ActivityReport, MentorsReport, ReportScope, TrainingsReport } from './reports.types.js';

const TOP_CONTROLLERS = 20;
/** Entries on one page of the audit log (§25). */
export const AUDIT_PAGE = 100;

export class ReportsService {
  constructor(private readonly deps: Deps<'repos' | 'clock' | 'config'>) {}

  /** The areas the viewer may read reports of (§25: Administrators and Moderators there). */
  readableAreas(view: StaffView) {
    return view.areas.filter((a) => mayDo(view.member, { kind: 'reports', area: a.id }).ok);
  }

  /**
   * The areas a report covers: the one named by `?area=` (403 when the viewer may not read it, 404
   * when there is none), else every area the viewer may read (a division-wide Administrator: the total).
   */
  scope(view: StaffView, area: string): ReportScope {
    const readable = this.readableAreas(view);
    if (area !== '') {
      const found = view.areas.find((a) => a.name.toLowerCase() === area.toLowerCase());
      if (!found) throw new NotFoundError('area');
      authorize(view.member, 'reports', { area: found.id });
      return { areas: [found], choices: readable, selected: found.name, label: found.name };
    }
    if (readable.length === 0) {
      throw new ForbiddenError(
        view.areas.length === 0
          ? 'The reports are read by Administrators and Moderators, and there are no areas yet.'
          : 'The reports of an area are read by its Administrators and Moderators; you hold neither role anywhere.',
      );
    }
    const label = view.member.divisionAdmin ? 'All areas (total)' : readable.map((a) => a.name).join(', ');
    return { areas: readable, choices: readable, selected: '', label };
  }

  private window(): { now: number; months: Month[]; today: string; sinceDay: string } {
    const now = this.deps.clock();
    const months = lastTwelveMonths(now);
    return {
      now,
      months,
      today: new Date(now).toISOString().slice(0, 10),
      sinceDay: new Date(months[0]!.start).toISOString().slice(0, 10),
    };
  }

  async trainings(view: StaffView, area: string): Promise<TrainingsReport> {
    const scope = this.scope(view, area);
    const { months, sinceDay } = this.window();
    const areaIds = scope.areas.map((a) => a.id);
    const repo = this.deps.repos.trainingFigures;
    const [rows, trainedFor, exams] = await Promise.all([
      repo.trainings(areaIds),
      repo.trainedFor(areaIds),
      repo.examResults(areaIds, sinceDay),
    ]);
    const areaName = new Map(scope.areas.map((a) => [a.id, a.name]));
    const monthly = months.map((m) => ({
      month: m.key,
      applications: 0,
      started: 0,
      completed: 0,
      closedStaff: 0,
      closedStudent: 0,
      closedSystem: 0,
    }));
    const at = (ms: number | null) => (ms === null ? undefined : monthly[months.findIndex((m) => ms >= m.start && ms < m.end)]);
    const statuses = new Map<number, number>();
    const queues = new Map<string, { area: string; rating: string; waiting: number; waits: number[] }>();
    const queue = (areaId: number, rating: string) => {
      const key = `${areaId}\u0000${rating}`;
      let q = queues.get(key);
      if (q === undefined) queues.set(key, (q = { area: areaName.get(areaId) ?? String(areaId), rating, waiting: 0, waits: [] }));
      return q;
    };
    const labelOf = new Map<number, string>();
    for (const t of rows) {
      const label = trainingFor(trainedFor.get(t.id) ?? []);
      labelOf.set(t.id, label);
      const created = at(t.created_at);
      if (created) created.applications += 1;
      const started = at(t.first_start ?? t.started_at);
      if (started) started.started += 1;
      const closed = at(t.closed_at);
      if (closed && t.status === -1) closed.completed += 1;
      if (closed && t.status === -2) closed.closedStaff += 1;
      if (closed && t.status === -3) closed.closedStudent += 1;
      if (closed && t.status === -4) closed.closedSystem += 1;
      statuses.set(t.status, (statuses.get(t.status) ?? 0) + 1);
      if (t.status === 0) queue(t.area_id, label).waiting += 1;
      if (t.queue_wait_ms !== null && t.started_at !== null && t.started_at >= months[0]!.start)
        queue(t.area_id, label).waits.push(t.queue_wait_ms);
    }
    const results = new Map<string, { passed: number; failed: number }>();
    for (const e of exams) {
      const label = labelOf.get(e.training_id) ?? trainingFor([]);
      const r = results.get(label) ?? { passed: 0, failed: 0 };
      if (e.result === 'PASSED') r.passed += e.n;
      else r.failed += e.n;
      results.set(label, r);
    }
    const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
    return {
      scope,
      monthly,
      queue: [...queues.values()]
        .sort((a, b) => byName(a.area, b.area) || byName(a.rating, b.rating))
        .map((q) => {
          const m = median(q.waits);
          return {
            area: q.area,
            rating: q.rating,
            waiting: q.waiting,
            left: q.waits.length,
            medianWaitDays: m === null ? null : Math.round((m / DAY_MS) * 10) / 10,
          };
        }),
      statuses: [3, 2, 1, 0, -1, -2, -3, -4].map((status) => ({ status, count: statuses.get(status) ?? 0 })),
      passRates: [...results.entries()]
        .sort(([a], [b]) => byName(a, b))
        .map(([rating, r]) => ({ rating, passed: r.passed, failed: r.failed, rate: passRate(r.passed, r.failed) })),
    };
  }

  async activity(view: StaffView, area: string): Promise<ActivityReport> {
    const scope = this.scope(view, area);
    const { now, months } = this.window();
    const areaIds = scope.areas.map((a) => a.id);
    const repo = this.deps.repos.staffFigures;
    const [from, to] = [months[0]!.start, months.at(-1)!.end];
    const [monthlyMs, top, members] = await Promise.all([
      repo.monthlyMs(areaIds, months),
      repo.topControllers(areaIds, from, to, TOP_CONTROLLERS),
      repo.activityStatuses(areaIds, graceCutoff(now, this.deps.config.activity.graceMonths)),
    ]);
    return {
      scope,
      monthly: months.map((m, i) => ({ month: m.key, ms: monthlyMs[i]! })),
      members,
      top: top.map((t) => ({ cid: t.cid, name: t.name?.trim() || null, ms: t.ms })),
    };
  }

  async mentors(view: StaffView, area: string): Promise<MentorsReport> {
    const scope = this.scope(view, area);
    const { now, today, sinceDay } = this.window();
    const areaIds = scope.areas.map((a) => a.id);
    const repo = this.deps.repos.staffFigures;
    const day = (daysAgo: number) => new Date(now - daysAgo * DAY_MS).toISOString().slice(0, 10);
    const [mentors, trainees, reports, examined] = await Promise.all([
      repo.mentors(areaIds),
      repo.traineesNow(areaIds),
      repo.reportsBy(areaIds, day(30), day(90)),
      repo.examinedBy(areaIds, sinceDay),
    ]);
    const names = await this.deps.repos.staff.names(mentors);
    const rows = mentors.map((cid) => {
      const r = reports.get(cid);
      return {
        cid,
        name: names.get(cid) ?? null,
        trainees: trainees.get(cid) ?? 0,
        reports30: r?.d30 ?? 0,
        reports90: r?.d90 ?? 0,
        daysSinceLast: r?.last ? daysBetween(r.last, today) : null,
        examinations: examined.get(cid) ?? 0,
      };
    });
    // Who has not written for longest first (never before anyone), then by name: the page is read to find them.
    rows.sort(
      (a, b) =>
        (b.daysSinceLast ?? Infinity) - (a.daysSinceLast ?? Infinity) || (a.name ?? '').localeCompare(b.name ?? '') || a.cid - b.cid,
    );
    return { scope, mentors: rows };
  }

  async access(view: StaffView, area: string): Promise<AccessReport> {
    const scope = this.scope(view, area);
    const areaIds = scope.areas.map((a) => a.id);
    const repo = this.deps.repos.staffFigures;
    const [roles, endorsementRows] = await Promise.all([repo.roles(areaIds), repo.endorsements(areaIds, this.deps.clock())]);
    const names = await this.deps.repos.staff.names([...roles.map((r) => r.user_id), ...endorsementRows.map((e) => e.user_id)]);
    const endorsements = new Map<
      number,
      { user_id: number; type: string; rating: string | null; valid_to: number | null; areas: string[] }
    >();
    for (const e of endorsementRows) {
      const got = endorsements.get(e.id);
      if (got) got.areas.push(e.area);
      else endorsements.set(e.id, { user_id: e.user_id, type: e.type, rating: e.rating, valid_to: e.valid_to, areas: [e.area] });
    }
    const order = ['Administrator', 'Moderator', 'Mentor', 'Buddy'];
    return {
      scope,
      names,
      roles: roles
        .map((r) => ({ user_id: r.user_id, role: r.role, area: r.area }))
        .sort(
          (a, b) =>
            (a.area ?? '').localeCompare(b.area ?? '') ||
            order.indexOf(a.role) - order.indexOf(b.role) ||
            (names.get(a.user_id) ?? '').localeCompare(names.get(b.user_id) ?? '') ||
            a.user_id - b.user_id,
        ),
      endorsements: [...endorsements.values()].sort((a, b) => a.type.localeCompare(b.type) || a.user_id - b.user_id),
    };
  }

  /** One page of the audit log, newest first, for a division-wide Administrator; `more` when an older page exists. */
  async audit(view: StaffView, filter: AuditFilter, page: number): Promise<{ entries: StoredAuditEntry[]; more: boolean }> {
    authorize(view.member, 'audit', {});
    const rows = await this.deps.repos.audit.list({ ...filter, limit: AUDIT_PAGE + 1, offset: (page - 1) * AUDIT_PAGE });
    return { entries: rows.slice(0, AUDIT_PAGE), more: rows.length > AUDIT_PAGE };
  }
}
