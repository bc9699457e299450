// What the staff pages show (contract §17): who the viewer is as staff, what needs attention in
// their areas, finding a person and everything about them, and the active endorsements. Reads
// only: every change a page makes goes through the API's own services (Endorsements, Roles,
// Positions), so it is the same write with its audit entry and events.
import { isActiveEndorsement } from '../endorsements/domain.js';
import type { StaffView } from '../roles/index.js';

export type { Area, StaffView } from '../roles/index.js';
import { presentEndorsement } from '../endorsements/index.js';
import type { Named } from '../roles/domain.js';
import type { IssueChoices, Overview, Person, Student } from './staff.types.js';
import { isMentor, mayDo } from '../roles/domain.js';
import { personName } from '../members/domain/names.js';
import type { Endorsement } from '../endorsements/index.js';
import type { StaffUserRow } from './staff.repository.js';
import type { ActivityService } from '../activity/index.js';
import type { Deps } from '../../app/deps.js';

const DAY = 86_400_000;
/** "Solos ending soon" on the overview and the endorsements page. */
export const ENDING_SOON_MS = 7 * DAY;
/** The most people a search lists (contract §17). */
export const SEARCH_LIMIT = 25;

/** Whether the viewer may open the training's page (its area's staff, or the student's mentor), as the page decides. */
const opens = (view: StaffView, t: { area_id: number; user_id: number }) =>
  mayDo(view.member, { kind: 'report', area: t.area_id, student: t.user_id }).ok;

export class StaffService {
  constructor(private readonly deps: Deps<'repos' | 'clock'> & { activity: ActivityService }) {}

  now(): number {
    return this.deps.clock();
  }

  /** The queue, open trainings without a mentor, and solos ending within 7 days, in the viewer's areas. */
  async overview(view: StaffView): Promise<Overview> {
    const areaIds = view.myAreas.map((a) => a.id);
    const now = this.deps.clock();
    const [queue, open, solos] = await Promise.all([
      this.deps.repos.trainings.list({ areaIds, statuses: [0], byCreation: true }),
      this.deps.repos.trainings.list({ areaIds, statuses: [1, 2, 3], byCreation: true }),
      this.deps.repos.endorsements.list({ now, type: 'solo', active: true, areaIds }),
    ]);
    const unmentored = open.filter((t) => t.mentors.length === 0);
    const ending = solos.filter((e) => e.valid_to !== null && e.valid_to - now <= ENDING_SOON_MS).sort((a, b) => a.valid_to! - b.valid_to!);
    const names = await this.deps.repos.staff.names([...queue, ...unmentored, ...ending].map((x) => x.user_id));
    const named = <T extends { user_id: number }>(item: T) => ({ item, name: names.get(item.user_id) ?? String(item.user_id) });
    const mentor = isMentor(view.member);
    return {
      queue: queue.map(named),
      unmentored: unmentored.map(named),
      endingSolos: ending.map((e) => named(presentEndorsement(e))),
      opens: new Set([...queue, ...unmentored].filter((t) => opens(view, t)).map((t) => t.id)),
      students: mentor ? await this.students(view) : null,
    };
  }

  /** The viewer's own open trainees (contract §20), the oldest last report first (none yet: first of all). */
  async students(view: StaffView): Promise<Student[]> {
    const now = this.deps.clock();
    const today = new Date(now).toISOString().slice(0, 10);
    const rows = await this.deps.repos.students.mentoredBy(view.member.cid, today);
    const byId = new Map(rows.map((r) => [r.training_id, r]));
    const trainings = await this.deps.repos.trainings.list({ ids: rows.map((r) => r.training_id) });
    const names = await this.deps.repos.staff.names(trainings.map((t) => t.user_id));
    const days = (from: number) => Math.max(0, Math.floor((now - from) / DAY));
    return trainings
      .map((t) => {
        const r = byId.get(t.id)!;
        return {
          training: t,
          name: personName(names, t.user_id),
          daysInTraining: days(t.started_at ?? t.created_at),
          lastReport: r.last_report,
          daysSinceReport: r.last_report === null ? null : days(Date.parse(`${r.last_report}T00:00:00Z`)),
          nextExam: r.next_exam,
        };
      })
      .sort(
        (a, b) =>
          (a.lastReport ?? '').localeCompare(b.lastReport ?? '') || b.daysInTraining - a.daysInTraining || a.training.id - b.training.id,
      );
  }

  search(q: string): Promise<StaffUserRow[]> {
    return this.deps.repos.staff.search(q.trim(), SEARCH_LIMIT);
  }

  /** Everything the person page shows, or null when there is no such user. */
  async person(cid: number): Promise<Person | null> {
    const user = Number.isSafeInteger(cid) && cid > 0 && cid <= 2_147_483_647 ? await this.deps.repos.staff.user(cid) : undefined;
    if (!user) return null;
    const now = this.deps.clock();
    const [endorsements, roles, trainings, hours, bookings] = await Promise.all([
      this.deps.repos.endorsements.list({ now, user_id: cid, newestFirst: true }),
      this.deps.repos.roles.list(cid),
      this.deps.repos.trainings.list({ user_id: cid }),
      this.deps.activity.explain(cid),
      this.deps.repos.memberBookings.bookings(cid, { from: now, to: Number.MAX_SAFE_INTEGER, cancelledSince: null }),
    ]);
    const names = await this.deps.repos.staff.names([
      ...endorsements.flatMap((e) => e.issued_by ?? []),
      ...trainings.flatMap((t) => t.mentors),
    ]);
    return { user, endorsements: endorsements.map(presentEndorsement), roles, trainings, hours, bookings, names };
  }

  async issueChoices(): Promise<IssueChoices> {
    const [positions, areas] = await Promise.all([this.deps.repos.positions.list(), this.deps.repos.positions.areas()]);
    const areaName = new Map(areas.map((a) => [a.id, a.name]));
    return {
      positions: positions.map((p) => ({ callsign: p.callsign, name: p.name, area: p.area_id === null ? null : areaName.get(p.area_id)! })),
      facilities: [...new Set(positions.flatMap((p) => (p.required_facility ? [p.required_facility] : [])))].sort(),
    };
  }

  /**
   * Active endorsements of the viewer's areas (a facility one by the areas of the positions that
   * require it), newest first; `area` narrows to one of them, `type` to one type.
   */
  async activeEndorsements(view: StaffView, filter: { type?: string; area?: number }): Promise<Array<Named<Endorsement>>> {
    const now = this.deps.clock();
    const areaIds = filter.area !== undefined ? [filter.area] : view.myAreas.map((a) => a.id);
    const type = filter.type as 'solo' | undefined;
    const [linked, facility, positions] = await Promise.all([
      this.deps.repos.endorsements.list({ now, active: true, areaIds, newestFirst: true, ...(type ? { type } : {}) }),
      type === undefined || (type as string) === 'facility'
        ? this.deps.repos.endorsements.list({ now, active: true, type: 'facility', newestFirst: true })
        : Promise.resolve([]),
      this.deps.repos.positions.list(),
    ]);
    const scope = new Set(areaIds);
    const facilities = new Set(
      positions.filter((p) => p.area_id !== null && scope.has(p.area_id) && p.required_facility).map((p) => p.required_facility),
    );
    const seen = new Set(linked.map((e) => e.id));
    const all = [...linked, ...facility.filter((e) => !seen.has(e.id) && facilities.has(e.rating))]
      .filter((e) => isActiveEndorsement(e, now))
      .sort((a, b) => b.created_at - a.created_at || b.id - a.id);
    const names = await this.deps.repos.staff.names(all.map((e) => e.user_id));
    return all.map((e) => ({ item: presentEndorsement(e), name: names.get(e.user_id) ?? String(e.user_id) }));
  }
}
