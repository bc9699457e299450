// Control Center's trainings (with ratings, mentors, reports, examinations and timeline) and ATC
// activity in Sector's import format (contracts §18, §19). Pure, like map.ts.
import { isRatingValue, ratingCode } from '../../domain/ratings.js';
import type { ControlCenterData, Row } from './read.js';
import { flag, instant, kind, type KindReport, num, str } from './values.js';

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
    at: instant(a.created_at ?? a.updated_at),
    actor: by === null ? 'system' : `member:${by}`,
    actor_name: by === null ? null : (known.userName.get(by) ?? null),
    action: type === 'MENTOR' ? 'mentors' : type.toLowerCase(),
    detail,
  };
}

export function planTrainings(cc: ControlCenterData, report: Record<string, KindReport>, known: Known): unknown[] {
  const r = (report.trainings = kind(cc.trainings.length));
  const reports = (report.training_reports = kind(cc.trainingReports.length));
  const exams = (report.training_examinations = kind(cc.trainingExaminations.length));
  const timeline = (report.training_timeline = kind(cc.trainingActivity.length));
  const ratingsOf = grouped(cc.trainingRatings);
  const mentorsOf = grouped(cc.trainingMentors);
  const reportsOf = grouped(cc.trainingReports);
  const examsOf = grouped(cc.trainingExaminations);
  const activityOf = grouped(cc.trainingActivity);
  const out: unknown[] = [];
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
    const createdAt = instant(t.created_at ?? t.updated_at ?? t.started_at);
    const key = `${userId}/${String(area)}/${String(createdAt)}`;
    let reason: string | null = null;
    if (!known.userIds.has(userId)) reason = `user ${userId} is not imported`;
    else if (area === undefined) reason = `area ${String(t.area_id)} does not exist`;
    else if (TYPES[num(t.type) - 1] === undefined) reason = `unknown type ${String(t.type)}`;
    else if (!Number.isInteger(num(t.status)) || num(t.status) < -4 || num(t.status) > 3) reason = `unknown status ${String(t.status)}`;
    else if (createdAt === null) reason = 'no creation time';
    else if (seen.has(key)) reason = 'same user, area and created_at as an earlier training';
    if (reason !== null) {
      r.skipped.push({ row, reason });
      skipAll(id);
      continue;
    }
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
      if (str(x.content) === null) {
        reports.skipped.push({ row: `report ${String(x.id)}`, reason: 'no content' });
        continue;
      }
      // 7.x also keeps published_at; a draft is a draft in both.
      movedReports.push({
        report_date: String(x.report_date).slice(0, 10),
        content: String(x.content).slice(0, 20_000),
        improve: str(x.contentimprove),
        position: str(x.position)?.slice(0, 30) ?? null,
        draft: flag(x.draft),
        author_id: x.written_by_id == null ? null : num(x.written_by_id),
        created_at: instant(x.created_at ?? x.report_date),
        updated_at: instant(x.updated_at ?? x.created_at ?? x.report_date),
      });
    }
    const movedExams: unknown[] = [];
    for (const x of examsOf.get(id) ?? []) {
      const position = x.position_id == null ? undefined : known.callsignOf.get(num(x.position_id));
      const why = x.result == null ? 'no result' : x.examiner_id == null ? 'no examiner' : position === undefined ? 'no position' : null;
      if (why !== null) {
        exams.skipped.push({ row: `examination ${String(x.id)}`, reason: why });
        continue;
      }
      movedExams.push({
        examination_date: String(x.examination_date).slice(0, 10),
        position,
        examiner_id: num(x.examiner_id),
        result: String(x.result),
        created_at: instant(x.created_at ?? x.examination_date),
      });
    }
    const entries = (activityOf.get(id) ?? [])
      .filter((a) => a.created_at != null || a.updated_at != null)
      .sort((a, b) => String(a.created_at).localeCompare(String(b.created_at)) || num(a.id) - num(b.id))
      .map((a) => timelineEntry(a, known));
    reports.imported += movedReports.length;
    exams.imported += movedExams.length;
    timeline.imported += entries.length;
    const experience = t.experience == null ? null : num(t.experience);
    out.push({
      user_id: userId,
      area,
      type: TYPES[num(t.type) - 1],
      status: num(t.status),
      created_at: createdAt,
      started_at: instant(t.started_at),
      closed_at: instant(t.closed_at),
      closed_reason: str(t.closed_reason)?.slice(0, 255) ?? null,
      motivation: str(t.motivation),
      experience: experience !== null && experience >= 1 && experience <= 6 ? experience : null,
      english_only: flag(t.english_only_training),
      paused_at: instant(t.paused_at),
      ratings: [...new Set(ratings)],
      mentors,
      reports: movedReports,
      examinations: movedExams,
      timeline: entries,
    });
  }
  for (const a of cc.trainingActivity)
    if (a.created_at == null && a.updated_at == null) timeline.skipped.push({ row: `activity ${String(a.id)}`, reason: 'no time' });
  r.imported = out.length;
  return out;
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
