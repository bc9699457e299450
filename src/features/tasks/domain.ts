// Tasks between staff (contract §21): the rules, without I/O. Who may be asked is decided here from
// the roles a member holds; who may ask is the permission table's (roles/domain.ts, kind 'task').
import type { FieldErrors } from '../../core/domain/errors.js';
import { isRatingCode, ratingValue } from '../members/domain/ratings.js';
import { rolesIn, type StaffMember } from '../roles/domain.js';

export const TASK_TYPES = ['rating_upgrade', 'solo_endorsement', 'theory_exam', 'custom'] as const;
export type TaskType = (typeof TASK_TYPES)[number];
export const TASK_STATUSES = ['pending', 'completed', 'declined', 'withdrawn'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
export const CLOSING_STATUSES = ['completed', 'declined', 'withdrawn'] as const;
export type ClosingStatus = (typeof CLOSING_STATUSES)[number];
export const TASK_TEXT_MAX = 1000;
/** How far back /staff/tasks shows closed tasks. */
export const CLOSED_SHOWN_DAYS = 90;

export const TASK_TYPE_TEXT: Record<TaskType, string> = {
  rating_upgrade: 'Rating upgrade',
  solo_endorsement: 'Solo endorsement',
  theory_exam: 'Theory exam access',
  custom: 'Request',
};

export const isTaskType = (t: string): t is TaskType => (TASK_TYPES as readonly string[]).includes(t);
/** Types that name a rating (the upgrade's, the exam's). */
export const needsRating = (t: TaskType): boolean => t === 'rating_upgrade' || t === 'theory_exam';

export interface TaskInput {
  type: string;
  subject_user_id: number;
  training_id: number | null;
  rating: string | null;
  message: string | null;
  assignee_id: number;
  /** solo_endorsement: the creator confirms the student has passed the theoretical exam. */
  theory_exam_passed: boolean;
}

/** The field errors of a task's own values (the people and the training are checked against the database). */
export function inputErrors(input: TaskInput): FieldErrors {
  const errors: FieldErrors = {};
  if (!isTaskType(input.type)) {
    errors.type = [`The type must be one of ${TASK_TYPES.join(', ')}.`];
    return errors;
  }
  if (input.type !== 'custom' && input.training_id === null)
    errors.training_id = ['A task of this type is about a training: give training_id.'];
  const message = input.message?.trim() ?? '';
  if (message.length > TASK_TEXT_MAX) errors.message = [`The message must be at most ${TASK_TEXT_MAX} characters.`];
  else if (input.type === 'custom' && message === '') errors.message = ['A custom task needs a message of 1 to 1000 characters.'];
  if (needsRating(input.type)) {
    const r = input.rating?.trim() ?? '';
    if (!isRatingCode(r) || (ratingValue(r) ?? 0) < 2) errors.rating = ['Give the rating as a rating code, S1 or higher (S2, S3, C1, …).'];
  }
  if (input.type === 'solo_endorsement' && !input.theory_exam_passed)
    errors.theory_exam_passed = ['Confirm that the student has passed the theoretical exam.'];
  return errors;
}

/** Why `staff` cannot be asked for a task of the area (null: for a custom task without a training), or null when they can. */
export function assigneeProblem(staff: StaffMember, area: { id: number; name: string } | null): string | null {
  const asked = (roles: Set<string>) => roles.has('Moderator') || roles.has('Administrator');
  if (area === null) {
    if (staff.divisionAdmin || [...staff.areaRoles.values()].some((r) => asked(new Set(r)))) return null;
    return 'holds neither Moderator nor Administrator in any area';
  }
  return asked(rolesIn(staff, area.id)) ? null : `holds neither Moderator nor Administrator in ${area.name}`;
}

/** Who may close a task, and how: the assignee completes or declines, the creator withdraws. */
export function closerProblem(task: { creator_id: number; assignee_id: number }, status: ClosingStatus, actor: number): string | null {
  if (status === 'withdrawn') return actor === task.creator_id ? null : 'Only the task’s creator withdraws it.';
  return actor === task.assignee_id ? null : 'Only the task’s assignee completes or declines it.';
}
