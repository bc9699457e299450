// Control Center's trainings (with ratings, mentors, reports, examinations and timeline) and ATC
// activity in Sector's import format (contracts §18, §19). Pure, like map.ts.
import { isRatingValue, ratingCode } from '../../members/domain/ratings.js';
import type { ControlCenterData, Row } from './read.js';
import type { ImportTraining } from '../import/plan.js';
import { parseExamination, parseReport, parseTimelineEntry, parseTraining } from '../import/trainings.js';
import { fits, flag, instant, isZeroDate, kind, type KindReport, num, rowLabel, str, zeroDates } from './values.js';

/** Control Center's training types 1–5, in order. */
const TYPES = ['Standard', 'Refresh', 'Transfer', 'Fast-track', 'Familiarisation'];

/** What the mapping of trainings needs from the rest of the move. */
export interface Known {
  userIds: Set<number>;
  areaName: Map<number, string>;
  ratingById: Map<number, Row>;
  callsignOf: Map<number, string>;
  userName: Map<number, string>;
}

function grouped(rows: Row[]): Map<number, Row[]> {
  const m = new Map<number, Row[]>();
  for (const r of rows) {
    const id = num(r.training_id);
    const list = m.get(id);
    if (list) list.push(r);
    else m.set(id, [r]);
  }
  return m;
}

/** A CC `training_activity` row as a timeline entry: the action and its details as Sector words them. */
function timelineEntry(a: Row, known: Known): Record<string, unknown> {
  const type = String(a.type).toUpperCase();
  const by = a.triggered_by_id == null ? null : num(a.triggered_by_id);
  const detail: Record<string, unknown> = {};
  const from = a.old_data == null ? null : num(a.old_data);
  const to = a.new_data == null ? null : num(a.new_data);
  if (type === 'TYPE')
    Object.assign(detail, { from: from === null ? null : (TYPES[from - 1] ?? from), to: to === null ? null : (TYPES[to - 1] ?? to) });
  else if (type === 'MENTOR') Object.assign(detail, to !== null ? { added: to } : { removed: from });
  else if (type === 'PAUSE') detail.paused = to === 1;
  else if (type === 'ENDORSEMENT') detail.control_center_endorsement = to;
  else if (from !== null || to !== null) Object.assign(detail, { from, to });
  if (str(a.comment) !== null) detail.comment = str(a.comment);
  return {
    at: instant(a.created_at) ?? instant(a.updated_at),
    actor: by === null ? 'system' : `member:${by}`,
    actor_name: by === null ? null : (known.userName.get(by) ?? null),
    action: type === 'MENTOR' ? 'mentors' : type.toLowerCase(),
    detail,
  };
}

/** A record's moved files (contract §20), given only where there are some. */
const withFiles = (list: Array<Record<string, unknown>>) => (list.length === 0 ? {} : { attachments: list });

/** A DATE column as YYYY-MM-DD; a zero date is no date. */
const day = (v: string | number | null | undefined): string | null => (v == null || isZeroDate(v) ? null : String(v).slice(0, 10));
const hasTime = (a: Row) => instant(a.created_at) !== null || instant(a.updated_at) !== null;

export function planTrainings(
  cc: ControlCenterData,
  report: Record<string, KindReport>,
  known: Known,
  files: (key: string) => Array<Record<string, unknown>> = () => [],
): ImportTraining[] {
  const r = (report.trainings = kind(cc.trainings.length));
  const reports = (report.training_reports = kind(cc.trainingReports.length));
  const exams = (report.training_examinations = kind(cc.trainingExaminations.length));
  const timeline = (report.training_timeline = kind(cc.trainingActivity.length));
  const ratingsOf = grouped(cc.trainingRatings);
  const mentorsOf = grouped(cc.trainingMentors);
  const reportsOf = grouped(cc.trainingReports);
  const examsOf = grouped(cc.trainingExaminations);
  const activityOf = grouped(cc.trainingActivity);
  const out: ImportTraining[] = [];
  const seen = new Set<string>();
  const skipAll = (id: number) => {
    for (const x of reportsOf.get(id) ?? [])
      reports.skipped.push({ row: `report ${String(x.id)}`, reason: `training ${id} is not imported` });
    for (const x of examsOf.get(id) ?? [])
      exams.skipped.push({ row: `examination ${String(x.id)}`, reason: `training ${id} is not imported` });
    for (const x of activityOf.get(id) ?? [])
      timeline.skipped.push({ row: `activity ${String(x.id)}`, reason: `training ${id} is not imported` });
  };
  for (const t of cc.trainings) {
    const id = num(t.id);
    const row = `training ${id}`;
    const userId = num(t.user_id);
    const area = known.areaName.get(num(t.area_id));
    const createdAt = instant(t.created_at) ?? instant(t.updated_at) ?? instant(t.started_at);
    const key = `${userId}/${String(area)}/${String(createdAt)}`;
    let reason: string | null = null;
    if (!known.userIds.has(userId)) reason = `user ${userId} is not imported`;
    else if (area === undefined) reason = `area ${String(t.area_id)} does not exist`;
    else if (TYPES[num(t.type) - 1] === undefined) reason = `unknown type ${String(t.type)}`;
    else if (!Number.isInteger(num(t.status)) || num(t.status) < -4 || num(t.status) > 3) reason = `unknown status ${String(t.status)}`;
    else if (createdAt === null) reason = 'no creation time';
    else if (seen.has(key)) reason = 'same user, area and created_at as an earlier training';
    const label = rowLabel('trainings', t.id);
    if (reason === null) {
      const probe = { user_id: userId, area, type: TYPES[num(t.type) - 1], status: num(t.status), created_at: createdAt };
      if (!fits(r, row, label, () => parseTraining({ ...probe, ...trainingColumns(t) }, label))) reason = '';
    }
    if (reason !== null) {
      if (reason !== '') r.skipped.push({ row, reason });
      skipAll(id);
      continue;
    }
    zeroDates(r, row, t, [], ['created_at', 'started_at', 'closed_at', 'paused_at']);
    seen.add(key);
    const ratings = (ratingsOf.get(id) ?? []).flatMap((x) => {
      const rating = known.ratingById.get(num(x.rating_id));
      if (!rating) return [];
      if (rating.vatsim_rating == null) return [String(rating.name).trim()];
      return isRatingValue(num(rating.vatsim_rating)) ? [ratingCode(num(rating.vatsim_rating))] : [];
    });
    const mentors: number[] = [];
    for (const m of mentorsOf.get(id) ?? []) {
      if (known.userIds.has(num(m.user_id))) mentors.push(num(m.user_id));
      else r.changed.push({ row, reason: `mentor ${String(m.user_id)} is not imported: left out` });
    }
    const movedReports: unknown[] = [];
    for (const x of reportsOf.get(id) ?? []) {
      const reportRow = `report ${String(x.id)}`;
      const why = str(x.content) === null ? 'no content' : zeroDates(reports, reportRow, x, ['report_date'], []);
      if (why !== null) {
        reports.skipped.push({ row: reportRow, reason: why });
        continue;
      }
      const createdAt = instant(x.created_at) ?? `${day(x.report_date)}T00:00:00Z`;
      // 7.x also keeps published_at; a draft is a draft in both.
      const moved = {
        report_date: day(x.report_date),
        content: String(x.content).slice(0, 20_000),
        improve: str(x.contentimprove),
        position: str(x.position)?.slice(0, 30) ?? null,
        draft: flag(x.draft),
        author_id: x.written_by_id == null ? null : num(x.written_by_id),
        created_at: createdAt,
        updated_at: instant(x.updated_at) ?? createdAt,
        ...withFiles(files(`report:${num(x.id)}`)),
      };
      const reportLabel = rowLabel('training_reports', x.id);
      if (fits(reports, reportRow, reportLabel, () => parseReport(moved, reportLabel))) movedReports.push(moved);
    }
    const movedExams: unknown[] = [];
    for (const x of examsOf.get(id) ?? []) {
      const position = x.position_id == null ? undefined : known.callsignOf.get(num(x.position_id));
      const examRow = `examination ${String(x.id)}`;
      const why =
        x.result == null
          ? 'no result'
          : x.examiner_id == null
            ? 'no examiner'
            : position === undefined
              ? 'no position'
              : zeroDates(exams, examRow, x, ['examination_date'], []);
      if (why !== null) {
        exams.skipped.push({ row: examRow, reason: why });
        continue;
      }
      const moved = {
        examination_date: day(x.examination_date),
        position,
        examiner_id: num(x.examiner_id),
        result: String(x.result),
        created_at: instant(x.created_at) ?? `${day(x.examination_date)}T00:00:00Z`,
        ...withFiles(files(`examination:${num(x.id)}`)),
      };
      const examLabel = rowLabel('training_examinations', x.id);
      if (fits(exams, examRow, examLabel, () => parseExamination(moved, examLabel))) movedExams.push(moved);
    }
    const entries = (activityOf.get(id) ?? [])
      .filter(hasTime)
      .sort((a, b) => String(instant(a.created_at)).localeCompare(String(instant(b.created_at))) || num(a.id) - num(b.id))
      .flatMap((a) => {
        const entry = timelineEntry(a, known);
        const entryLabel = rowLabel('training_activity', a.id);
        return fits(timeline, `activity ${String(a.id)}`, entryLabel, () => parseTimelineEntry(entry, entryLabel)) ? [entry] : [];
      });
    reports.imported += movedReports.length;
    exams.imported += movedExams.length;
    timeline.imported += entries.length;
    // Each part was checked above: the whole fits.
    const training = {
      user_id: userId,
      area,
      type: TYPES[num(t.type) - 1],
      status: num(t.status),
      created_at: createdAt,
      ...trainingColumns(t),
      ratings: [...new Set(ratings)],
      mentors,
      reports: movedReports,
      examinations: movedExams,
      timeline: entries,
    };
    out.push(parseTraining(training, label));
  }
  for (const a of cc.trainingActivity) if (!hasTime(a)) timeline.skipped.push({ row: `activity ${String(a.id)}`, reason: 'no time' });
  r.imported = out.length;
  return out;
}

/** A training's own columns but its key, type and status, as the import format takes them. */
function trainingColumns(t: Row): Record<string, unknown> {
  const experience = t.experience == null ? null : num(t.experience);
  return {
    started_at: instant(t.started_at),
    closed_at: instant(t.closed_at),
    closed_reason: str(t.closed_reason)?.slice(0, 255) ?? null,
    motivation: str(t.motivation),
    experience: experience !== null && experience >= 1 && experience <= 6 ? experience : null,
    english_only: flag(t.english_only_training),
    paused_at: instant(t.paused_at),
  };
}

/**
 * ATC activity per user and area (`atc_activities`): active areas, each with its grace start when
 * Control Center has one; without one, Sector's grace starts at the move.
 */
export function planActivity(
  cc: ControlCenterData,
  report: Record<string, KindReport>,
  known: Known,
): Map<number, { active: Record<string, boolean>; grace: Record<string, string> }> {
  const r = (report.atc_activity = kind(cc.atcActivities.length));
  const out = new Map<number, { active: Record<string, boolean>; grace: Record<string, string> }>();
  for (const a of cc.atcActivities) {
    const userId = num(a.user_id);
    const area = known.areaName.get(num(a.area_id));
    const row = `activity of user ${userId} in area ${String(a.area_id)}`;
    if (!known.userIds.has(userId)) r.skipped.push({ row, reason: `user ${userId} is not imported` });
    else if (area === undefined) r.skipped.push({ row, reason: `area ${String(a.area_id)} does not exist` });
    else {
      zeroDates(r, row, a, [], ['start_of_grace_period']);
      const entry = out.get(userId) ?? { active: {}, grace: {} };
      entry.active[area] = flag(a.atc_active);
      const grace = instant(a.start_of_grace_period);
      if (flag(a.atc_active) && grace !== null) entry.grace[area] = grace;
      out.set(userId, entry);
      r.imported += 1;
    }
  }
  return out;
}
