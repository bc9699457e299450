// What the staff training pages show (contract §18): the queue and the open trainings of the
// viewer's areas, the examinations overview, and one training with everything recorded about it.
// Reads only; every change goes through TrainingsService and TrainingRecordsService, as the API's do.
import { mayDo, rolesIn } from '../roles/domain.js';
import { STATUS } from './domain.js';
import { mayRemove } from './attachments.domain.js';
import { timelineCids } from './timeline.domain.js';
import { ratingCode, ratingValue } from '../members/domain/ratings.js';
import { presentTrainingDetail } from './trainings.presenter.js';
import type { ExaminationOverviewRow } from './examinations.repository.js';
import type { TrainingRecord } from './trainings.repository.js';
import type { TrainingDetail } from './trainings.schema.js';
import type { StaffView } from '../roles/index.js';
import type { Deps } from '../../app/deps.js';

/** The viewer may see the training: the area's staff, or the student's mentor (as for reports, §17). */
const sees = (view: StaffView, t: { area_id: number; user_id: number }) =>
  mayDo(view.member, { kind: 'report', area: t.area_id, student: t.user_id }).ok;

export class TrainingDeskService {
  constructor(private readonly deps: Deps<'repos' | 'clock'>) {}

  async list(view: StaffView, filter: { area?: number; status?: number }): Promise<TrainingList> {
    const areaIds = view.myAreas.map((a) => a.id).filter((id) => filter.area === undefined || id === filter.area);
    const statuses =
      filter.status === undefined ? [STATUS.IN_QUEUE, STATUS.PRE_TRAINING, STATUS.ACTIVE, STATUS.AWAITING_EXAM] : [filter.status];
    const all = (await this.deps.repos.trainings.list({ areaIds, statuses, byCreation: true })).filter((t) => sees(view, t));
    const areaNames = new Map(view.areas.map((a) => [a.id, a.name]));
    const examinations = (await this.deps.repos.trainingExaminations.overview(areaIds, null))
      .filter((x) => sees(view, x))
      .map((x) => ({ ...x, area: areaNames.get(x.area_id) ?? String(x.area_id) }));
    const names = await this.deps.repos.staff.names([
      ...all.flatMap((t) => [t.user_id, ...t.mentors]),
      ...examinations.flatMap((x) => [x.user_id, x.examiner_id]),
    ]);
    return {
      queue: all.filter((t) => t.status === STATUS.IN_QUEUE),
      open: all.filter((t) => t.status !== STATUS.IN_QUEUE).sort((a, b) => a.id - b.id),
      examinations,
      names,
    };
  }

  /** The training as its staff see it (drafts and timeline included); null when none, or not the viewer's to see. */
  async detail(view: StaffView, id: number): Promise<TrainingView | null> {
    const t = await this.deps.repos.trainings.find(id);
    if (!t || !sees(view, t)) return null;
    const records = this.deps.repos.trainingRecords;
    const [reports, examinations, timeline, attachments] = await Promise.all([
      records.reports(id, true),
      this.deps.repos.trainingExaminations.ofTraining(id),
      records.timeline(id),
      this.deps.repos.attachments.ofTrainings([id]),
    ]);
    const roles = await this.deps.repos.roles.list();
    const mentorChoices = [
      ...new Set(
        roles
          .filter(
            (r) =>
              (r.area === t.area && ['Mentor', 'Moderator', 'Administrator'].includes(r.role)) ||
              (r.area === null && r.role === 'Administrator'),
          )
          .map((r) => r.user_id),
      ),
    ].sort((a, b) => a - b);
    const { examinerChoices, positionChoices } = await this.examChoices(t.area_id);
    const names = await this.deps.repos.staff.names([
      t.user_id,
      ...mentorChoices,
      ...examinations.flatMap((x) => x.examiners),
      ...t.mentors,
      ...examinerChoices.map((e) => e.cid),
      ...reports.flatMap((r) => (r.author_id === null ? [] : [r.author_id])),
      ...timelineCids(timeline.map((e) => ({ ...e, detail: JSON.parse(e.detail) as Record<string, unknown> }))),
    ]);
    const held = rolesIn(view.member, t.area_id);
    const examinable = examinations.filter(
      (x) => mayDo(view.member, { kind: 'examination', area: t.area_id, examiners: x.examiners, graded: false }).ok,
    );
    return {
      record: t,
      detail: presentTrainingDetail(t, reports, examinations, timeline, attachments),
      names,
      mentorChoices,
      manages: held.has('Administrator') || held.has('Moderator'),
      mayStatus: mayDo(view.member, { kind: 'training', area: t.area_id, student: t.user_id, statusOnly: true }).ok,
      files: {
        examinations: new Set(examinable.map((x) => x.id)),
        removable: new Set(attachments.filter((a) => mayRemove(view.member, a)).map((a) => a.id)),
      },
      examinerChoices,
      positionChoices,
      viewer: view.member.cid,
    };
  }

  /** Who may be picked as examiner in the area (an active examiner endorsement covering it, with its rating), and the area's positions. */
  private async examChoices(areaId: number) {
    const best = new Map<number, string>();
    for (const e of await this.deps.repos.trainingExaminations.examinerRatings(areaId, this.deps.clock())) {
      const rating = e.rating ?? '';
      if ((ratingValue(rating) ?? 0) >= (ratingValue(best.get(e.user_id) ?? '') ?? 0)) best.set(e.user_id, rating);
    }
    const positions = (await this.deps.repos.positions.list()).filter((p) => p.area_id === areaId);
    return {
      examinerChoices: [...best].map(([cid, rating]) => ({ cid, rating })),
      positionChoices: positions.map((p) => ({ callsign: p.callsign, name: p.name, rating: ratingCode(p.rating) })),
    };
  }

  /** GET /staff/exams: examinations of the viewer's areas they may see, and those they examine, newest first. */
  async exams(view: StaffView): Promise<ExamList> {
    const areaIds = view.myAreas.map((a) => a.id);
    const me = view.member.cid;
    const rows = (await this.deps.repos.trainingExaminations.overview(areaIds, me)).filter(
      (x) => x.examiners.includes(me) || sees(view, x),
    );
    const areaNames = new Map(view.areas.map((a) => [a.id, a.name]));
    const names = await this.deps.repos.staff.names(rows.flatMap((x) => [x.user_id, ...x.examiners]));
    return {
      examinations: rows.map((x) => ({ ...x, area: areaNames.get(x.area_id) ?? String(x.area_id), linked: sees(view, x) })),
      names,
      viewer: me,
      today: new Date(this.deps.clock()).toISOString().slice(0, 10),
    };
  }
}

/** GET /staff/exams (src/features/trainings/desk.service.ts). */
export interface ExamList {
  /** Newest first; `linked`: the viewer may open the training's page. */
  examinations: Array<ExaminationOverviewRow & { area: string; linked: boolean }>;
  names: Map<number, string>;
  viewer: number;
  today: string;
}

/** The staff training list (src/features/trainings/desk.service.ts). */
export interface TrainingList {
  /** In queue, oldest first. */
  queue: TrainingRecord[];
  /** Past the queue (statuses 1–3), by id. */
  open: TrainingRecord[];
  examinations: Array<ExaminationOverviewRow & { area: string }>;
  /** CID -> name, for everyone the lists show. */
  names: Map<number, string>;
}

export interface TrainingView {
  record: TrainingRecord;
  detail: TrainingDetail;
  names: Map<number, string>;
  /** Who may be assigned as mentor: Mentor or a higher role in the area. */
  mentorChoices: number[];
  /** The viewer manages the training (Administrator or Moderator of its area), else a mentor or buddy. */
  manages: boolean;
  /** The viewer may change the status (staff who manage it, or the trainee's own mentor; a Buddy may not). */
  mayStatus: boolean;
  /** The examinations the viewer may add files to (any who sees the training adds them to reports), and the files they may remove. */
  files: { examinations: ReadonlySet<number>; removable: ReadonlySet<number> };
  /** Who may be picked as examiner: holders of an active examiner endorsement covering the area, with its rating code. */
  examinerChoices: Array<{ cid: number; rating: string }>;
  /** The area's positions, with the rating each needs. */
  positionChoices: Array<{ callsign: string; name: string; rating: string }>;
  /** The viewer's CID (an examiner of an examination acts on it). */
  viewer: number;
}
