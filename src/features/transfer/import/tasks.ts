// The tasks section of an import file (contract §21): requests between staff, by id when given.
// Pure: the people and the training are checked against the database (import-tasks.repository.ts).
import { MAX_CID } from '../../../core/domain/limits.js';
import { needsRating, TASK_STATUSES, TASK_TEXT_MAX, TASK_TYPES } from '../../tasks/index.js';
import type { TaskStatus, TaskType } from '../../../core/db/schema.js';
import { type Obj, fail, gives, instant, int, isObj, notNull, nullableStr, obj, rating, record, reqStr } from './fields.js';
import { ImportError } from './plan.js';
import { preview } from './quote.js';

/** Highest id an import may give a task or a feedback (as bookings: the rest is left for new rows). */
export const MAX_IMPORTED_ID = 2_000_000_000;

export type DivisionApiState = 'pending' | 'sent' | 'refused';

/** A task's columns as a record gives them; the training by its key (the subject's training in that area from then). */
export interface TaskSet {
  type: TaskType;
  status: TaskStatus;
  subject_user_id: number;
  training: { area: string; created_at: number } | null;
  rating: number | null;
  message: string | null;
  creator_id: number;
  assignee_id: number;
  created_at: number;
  closed_at: number | null;
  closed_message: string | null;
  division_api_state: DivisionApiState | null;
  division_api_error: string | null;
}

export interface ImportTask {
  /** Null: a new task, numbered by the database. */
  id: number | null;
  set: Partial<TaskSet>;
  path: string;
}

const TASK_FIELDS = [
  'id',
  'type',
  'status',
  'subject_user_id',
  'training',
  'rating',
  'message',
  'creator_id',
  'assignee_id',
  'created_at',
  'closed_at',
  'closed_message',
  'division_api',
] as const;
/** Fields a record creating a task must give. */
export const TASK_REQUIRED = ['type', 'status', 'subject_user_id', 'creator_id', 'assignee_id', 'created_at'] as const;
const API_STATES: readonly DivisionApiState[] = ['pending', 'sent', 'refused'];

/** An id of a record that may be new (null: none given). */
export function recordId(o: Obj, path: string): number | null {
  const v = o.id;
  if (v === undefined || v === null) return null;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_IMPORTED_ID)
    return fail(`${path}.id`, `must be an integer from 1 to ${MAX_IMPORTED_ID} (higher ids are left for rows made after the import)`);
  return v;
}

function oneOf<T extends string>(o: Obj, key: string, path: string, values: readonly T[]): T {
  const v = o[key];
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
    return fail(`${path}.${key}`, `must be one of ${values.join(', ')} (got ${preview(v)})`);
  return v as T;
}

export function parseTask(t: unknown, path: string): ImportTask {
  const o = record(t, path, TASK_FIELDS);
  const set: Partial<TaskSet> = {};
  if (gives(o, 'type')) set.type = oneOf(o, 'type', path, TASK_TYPES);
  if (gives(o, 'status')) set.status = oneOf(o, 'status', path, TASK_STATUSES);
  for (const key of ['subject_user_id', 'creator_id', 'assignee_id'] as const) {
    if (!gives(o, key)) continue;
    notNull(o, key, path);
    set[key] = int(o, key, path, 1, MAX_CID);
  }
  if (gives(o, 'training')) {
    const v = o.training;
    if (v === null) set.training = null;
    else {
      const tp = `${path}.training`;
      const k = record(obj(v, tp), tp, ['area', 'created_at']);
      set.training = { area: reqStr(k, 'area', tp, 100), created_at: instant(k, 'created_at', tp, false)! };
    }
  }
  if (gives(o, 'rating')) set.rating = o.rating === null ? null : rating(o, 'rating', path);
  for (const key of ['message', 'closed_message'] as const) if (gives(o, key)) set[key] = nullableStr(o, key, path, TASK_TEXT_MAX);
  if (gives(o, 'created_at')) {
    notNull(o, 'created_at', path);
    set.created_at = instant(o, 'created_at', path, false)!;
  }
  if (gives(o, 'closed_at')) set.closed_at = instant(o, 'closed_at', path, true);
  if (gives(o, 'division_api')) {
    const v = o.division_api;
    const ap = `${path}.division_api`;
    if (v !== null && !isObj(v)) fail(ap, 'must be null or an object {"state", "error"?}');
    const api = v === null ? null : record(v, ap, ['state', 'error']);
    set.division_api_state = api === null ? null : oneOf(api, 'state', ap, API_STATES);
    set.division_api_error = api === null ? null : nullableStr(api, 'error', ap, 2000);
  }
  return { id: recordId(o, path), set, path };
}

/** A task's columns that its rules bind together, as they will be stored. */
export interface TaskRules {
  type: TaskType;
  status: TaskStatus;
  training_id: number | null;
  rating: number | null;
  message: string | null;
  closed_at: number | null;
  division_api_state: DivisionApiState | null;
  division_api_error: string | null;
}

/** The rules of a whole task (the database's constraints), each named by the field at fault. */
export function checkTask(t: TaskRules, path: string): void {
  const refuse = (field: string, msg: string) => {
    throw new ImportError(`${path}.${field}: ${msg}`);
  };
  if (t.type !== 'custom' && t.training_id === null) refuse('training', `is required for a ${t.type} task`);
  if (t.type === 'custom' && t.message === null) refuse('message', 'is required for a custom task');
  if (needsRating(t.type) && t.rating === null) refuse('rating', `is required for a ${t.type} task`);
  if (!needsRating(t.type) && t.rating !== null) refuse('rating', `must be null for a ${t.type} task`);
  if (t.status === 'pending' && t.closed_at !== null) refuse('closed_at', 'must be null for a pending task');
  if (t.status !== 'pending' && t.closed_at === null) refuse('closed_at', `is required for a ${t.status} task`);
  if (t.division_api_state !== 'refused' && t.division_api_error !== null) refuse('division_api.error', 'is only for a refused request');
}
