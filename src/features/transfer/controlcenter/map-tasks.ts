// Control Center's tasks and feedback in Sector's import format (contracts §19, §21, §23). Pure,
// like map.ts: a row that cannot be a Sector task or feedback is skipped with its reason.
import { isRatingValue, ratingCode } from '../../members/domain/ratings.js';
import { parseFeedback, type ImportFeedback } from '../import/feedback.js';
import type { ImportTraining } from '../import/plan.js';
import { checkTask, type ImportTask, parseTask, type TaskRules } from '../import/tasks.js';
import type { Known } from './map-trainings.js';
import type { ControlCenterData, Row } from './read.js';
import { fits, flag, instant, kind, type KindReport, num, rowLabel, str, zeroDates } from './values.js';

/** Control Center's task types (the class its `type` column names) as §21's. */
const TYPES: Record<string, ImportTask['set']['type']> = {
  RatingUpgrade: 'rating_upgrade',
  SoloEndorsement: 'solo_endorsement',
  TheoreticalExam: 'theory_exam',
  Custom: 'custom',
};
/** Control Center's task statuses (0 pending, 1 completed, -1 declined). */
const STATUSES: Record<number, ImportTask['set']['status']> = { 0: 'pending', 1: 'completed', [-1]: 'declined' };

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Tasks: every one names a training, which must have moved (its key is the task's link). A rating
 * upgrade or exam without a rating of its own takes its training's highest rating, as Control
 * Center shows it; a closed task without `closed_at` closes at its `updated_at`.
 */
export function planTasks(
  cc: ControlCenterData,
  report: Record<string, KindReport>,
  known: Known,
  trainings: ImportTraining[],
): ImportTask[] {
  const r = (report.tasks = kind(cc.tasks.length));
  const trainingOf = new Map(trainings.map((t) => [t.path, t]));
  const out: ImportTask[] = [];
  for (const t of cc.tasks) {
    const id = num(t.id);
    const row = `task ${id}`;
    const label = rowLabel('tasks', t.id);
    const type = TYPES[String(t.type).split('\\').at(-1)!];
    const status = STATUSES[num(t.status)];
    const [subject, assignee] = [num(t.subject_user_id), num(t.assignee_user_id)];
    const training = t.subject_training_id == null ? undefined : trainingOf.get(rowLabel('trainings', t.subject_training_id));
    const createdAt = instant(t.created_at) ?? instant(t.updated_at);
    const unknownUser = [subject, assignee, ...(t.creator_user_id == null ? [] : [num(t.creator_user_id)])].find(
      (u) => !known.userIds.has(u),
    );
    let reason: string | null = null;
    if (type === undefined) reason = `unknown type ${String(t.type)}`;
    else if (status === undefined) reason = `unknown status ${String(t.status)}`;
    else if (t.creator_user_id == null) reason = 'no creator';
    else if (unknownUser !== undefined) reason = `user ${unknownUser} is not imported`;
    else if (training === undefined) reason = `training ${String(t.subject_training_id)} is not imported`;
    else if (training.user_id !== subject) reason = `training ${String(t.subject_training_id)} is not user ${subject}'s`;
    else if (createdAt === null) reason = 'no creation time';
    if (reason !== null) {
      r.skipped.push({ row, reason });
      continue;
    }
    zeroDates(r, row, t, [], ['closed_at']);
    const rating = type === 'rating_upgrade' || type === 'theory_exam' ? ratingOf(t, training!, known) : null;
    if (rating === undefined) {
      r.skipped.push({ row, reason: 'no rating: neither the task nor its training names one' });
      continue;
    }
    let closedAt = status === 'pending' ? null : instant(t.closed_at);
    if (status !== 'pending' && closedAt === null) {
      closedAt = instant(t.updated_at) ?? createdAt;
      r.changed.push({ row, reason: `${status} without closed_at: closed at ${closedAt}` });
    }
    const record = {
      id,
      type,
      status,
      subject_user_id: subject,
      training: { area: training!.area, created_at: iso(training!.created_at) },
      rating,
      message: str(t.message),
      creator_id: num(t.creator_user_id),
      assignee_id: assignee,
      created_at: createdAt,
      closed_at: closedAt,
      closed_message: str(t.status_comment),
      division_api: null,
    };
    fits(r, row, label, () => {
      const task = parseTask(record, label);
      checkTask({ ...task.set, training_id: 0 } as unknown as TaskRules, label);
      out.push(task);
    });
  }
  r.imported = out.length;
  return out;
}

/** The task's own rating (`subject_training_rating_id`, 6.x on), else its training's highest; undefined: none. */
function ratingOf(t: Row, training: ImportTraining, known: Known): string | undefined {
  const own = t.subject_training_rating_id == null ? undefined : known.ratingById.get(num(t.subject_training_rating_id));
  if (own?.vatsim_rating != null && isRatingValue(num(own.vatsim_rating))) return ratingCode(num(own.vatsim_rating));
  const highest = Math.max(...(training.ratings ?? []));
  return isRatingValue(highest) ? ratingCode(highest) : undefined;
}

/**
 * Feedback: the sender must have moved; the controller is any CID; a position that did not move is
 * left out (reported). Control Center's `forwarded` (passed on to the controller) is `actioned`.
 */
export function planFeedback(cc: ControlCenterData, report: Record<string, KindReport>, known: Known): ImportFeedback[] {
  const r = (report.feedback = kind(cc.feedback.length));
  const out: ImportFeedback[] = [];
  for (const f of cc.feedback) {
    const id = num(f.id);
    const row = `feedback ${id}`;
    const sender = num(f.submitter_user_id);
    const createdAt = instant(f.created_at) ?? instant(f.updated_at);
    if (!known.userIds.has(sender)) r.skipped.push({ row, reason: `user ${sender} is not imported` });
    else if (createdAt === null) r.skipped.push({ row, reason: 'no creation time' });
    else {
      const position = f.reference_position_id == null ? null : (known.callsignOf.get(num(f.reference_position_id)) ?? null);
      if (f.reference_position_id != null && position === null)
        r.changed.push({ row, reason: `position ${String(f.reference_position_id)} is not imported: left out` });
      const record = {
        id,
        sender_id: sender,
        controller: f.reference_user_id == null ? null : num(f.reference_user_id),
        position,
        text: f.feedback == null ? '' : String(f.feedback),
        actioned: flag(f.forwarded),
        created_at: createdAt,
        updated_at: instant(f.updated_at) ?? createdAt,
      };
      const label = rowLabel('feedback', f.id);
      fits(r, row, label, () => out.push(parseFeedback(record, label)));
    }
  }
  r.imported = out.length;
  return out;
}
