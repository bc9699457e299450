// The trainings section of an import file, with what is recorded about each (contract §18).
import { MAX_CID } from '../../../core/domain/limits.js';
import { isRatingCode, RATINGS } from '../../members/domain/ratings.js';
import { type Obj, bool, fail, gives, instant, int, isObj, notNull, nullableStr, record, reqStr, strList } from './fields.js';
import type { ImportExamination, ImportReport, ImportTimelineEntry, ImportTraining } from './plan.js';
import { parseAttachments } from './attachments.js';
import { preview } from './quote.js';

const TRAINING_FIELDS = [
  'user_id',
  'area',
  'type',
  'status',
  'created_at',
  'started_at',
  'ratings',
  'facilities',
  'closed_at',
  'closed_reason',
  'motivation',
  'experience',
  'english_only',
  'paused_at',
  'paused_ms',
  'queue_wait_ms',
  'interest_confirmed_at',
  'interest_deadline',
  'mentors',
  'reports',
  'examinations',
  'timeline',
] as const;
const REPORT_FIELDS = [
  'report_date',
  'content',
  'improve',
  'position',
  'draft',
  'author_id',
  'created_at',
  'updated_at',
  'attachments',
] as const;
const EXAMINATION_FIELDS = [
  'examination_date',
  'start',
  'position',
  'examiner_id',
  'examiners',
  'result',
  'created_at',
  'updated_at',
  'attachments',
] as const;
const TIMELINE_FIELDS = ['at', 'actor', 'actor_name', 'action', 'detail'] as const;
const RESULTS = ['PASSED', 'FAILED', 'INCOMPLETE', 'POSTPONED'] as const;
const DATE_RE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

export const TRAINING_TYPES = ['Standard', 'Refresh', 'Transfer', 'Fast-track', 'Familiarisation'];

/** A list given in a record (null: the empty list), failing with the record's path. */
function list(o: Obj, key: string, path: string): unknown[] {
  const v = o[key] ?? [];
  if (!Array.isArray(v)) fail(`${path}.${key}`, 'must be an array');
  return v as unknown[];
}

function date(o: Obj, key: string, path: string): string {
  const v = reqStr(o, key, path, 10);
  // A day that exists as written (2026-02-30 is refused, not rolled over).
  if (!DATE_RE.test(v) || new Date(`${v}T00:00:00Z`).toISOString().slice(0, 10) !== v)
    fail(`${path}.${key}`, `must be a date YYYY-MM-DD (got ${preview(v)})`);
  return v;
}

export function parseReport(r: unknown, path: string): ImportReport {
  const o = record(r, path, REPORT_FIELDS);
  const createdAt = instant(o, 'created_at', path, false)!;
  return {
    report_date: date(o, 'report_date', path),
    content: reqStr(o, 'content', path, 20_000),
    improve: nullableStr(o, 'improve', path, 20_000),
    position: nullableStr(o, 'position', path, 30)?.toUpperCase() ?? null,
    draft: bool(o, 'draft', path),
    author_id: o.author_id == null ? null : int(o, 'author_id', path, 1, MAX_CID),
    created_at: createdAt,
    updated_at: gives(o, 'updated_at') ? (instant(o, 'updated_at', path, true) ?? createdAt) : createdAt,
    ...parseAttachments(o, path),
  };
}

export function parseExamination(x: unknown, path: string): ImportExamination {
  const o = record(x, path, EXAMINATION_FIELDS);
  // No result: a planned examination (§20).
  const result = o.result == null ? null : reqStr(o, 'result', path, 20);
  if (result !== null && !(RESULTS as readonly string[]).includes(result)) fail(`${path}.result`, `must be one of ${RESULTS.join(', ')}`);
  const start = nullableStr(o, 'start', path, 5);
  if (start !== null && !/^([01]\d|2[0-3]):[0-5]\d$/.test(start)) fail(`${path}.start`, `must be a time HH:MM (got ${preview(start)})`);
  // The examiners in order; without them, examiner_id alone (§18). Given both, examiner_id is the first.
  const examiners = gives(o, 'examiners')
    ? list(o, 'examiners', path).map((m, j) => {
        if (typeof m !== 'number' || !Number.isInteger(m) || m < 1 || m > MAX_CID)
          fail(`${path}.examiners[${j}]`, `must be a user id from 1 to ${MAX_CID}`);
        return m as number;
      })
    : null;
  if (examiners !== null && (examiners.length < 1 || examiners.length > 2 || new Set(examiners).size !== examiners.length))
    fail(`${path}.examiners`, 'must name one or two different examiners');
  const examinerId = examiners !== null && o.examiner_id == null ? examiners[0]! : int(o, 'examiner_id', path, 1, MAX_CID);
  if (examiners !== null && examiners[0] !== examinerId) fail(`${path}.examiner_id`, 'must be the first of examiners');
  const createdAt = instant(o, 'created_at', path, false)!;
  return {
    examination_date: date(o, 'examination_date', path),
    start,
    position: reqStr(o, 'position', path, 30).toUpperCase(),
    examiner_id: examinerId,
    examiners: examiners ?? [examinerId],
    result: result as ImportExamination['result'],
    created_at: createdAt,
    updated_at: gives(o, 'updated_at') ? (instant(o, 'updated_at', path, true) ?? createdAt) : createdAt,
    ...parseAttachments(o, path),
  };
}

export function parseTimelineEntry(e: unknown, path: string): ImportTimelineEntry {
  const o = record(e, path, TIMELINE_FIELDS);
  const detail = o.detail ?? {};
  if (!isObj(detail)) fail(`${path}.detail`, 'must be an object');
  return {
    at: instant(o, 'at', path, false)!,
    actor: reqStr(o, 'actor', path, 100),
    actor_name: nullableStr(o, 'actor_name', path),
    action: reqStr(o, 'action', path, 50),
    detail: JSON.stringify(detail),
  };
}

export function parseTraining(t: unknown, path: string): ImportTraining {
  const o = record(t, path, TRAINING_FIELDS);
  const set: ImportTraining['set'] = {};
  if (gives(o, 'type')) {
    notNull(o, 'type', path);
    const type = reqStr(o, 'type', path);
    if (!TRAINING_TYPES.includes(type)) fail(`${path}.type`, `must be one of ${TRAINING_TYPES.join(', ')}`);
    set.type = type;
  }
  let ratings: number[] | undefined;
  let facilities: string[] | undefined;
  if (gives(o, 'facilities')) {
    // Facilities in their own list (an export): ratings then holds rating codes only, so a facility
    // spelled like a rating code stays a facility.
    facilities = strList(o, 'facilities', path);
    if (gives(o, 'ratings'))
      ratings = strList(o, 'ratings', path).map((code, j) => {
        if (!isRatingCode(code)) fail(`${path}.ratings[${j}]`, `unknown rating ${preview(code)} (facilities are listed in facilities)`);
        return RATINGS[code as keyof typeof RATINGS];
      });
  } else if (gives(o, 'ratings')) {
    // The older mixed form: a rating code, or the name of a facility endorsement the training is for
    // (as the API lists them); it replaces both lists.
    const names = strList(o, 'ratings', path);
    ratings = names.filter((n) => isRatingCode(n)).map((code) => RATINGS[code]);
    facilities = names.filter((n) => !isRatingCode(n));
  }
  const userId = int(o, 'user_id', path, 1, MAX_CID);
  const area = reqStr(o, 'area', path);
  if (gives(o, 'status')) {
    notNull(o, 'status', path);
    set.status = int(o, 'status', path, -4, 3);
  }
  const createdAt = instant(o, 'created_at', path, false) as number;
  for (const key of ['started_at', 'closed_at', 'paused_at', 'interest_confirmed_at', 'interest_deadline'] as const)
    if (gives(o, key)) set[key] = instant(o, key, path, true);
  // Durations in milliseconds, as stored: the time paused before paused_at, and the wait in the queue.
  if (gives(o, 'paused_ms')) set.paused_ms = o.paused_ms === null ? 0 : int(o, 'paused_ms', path, 0, Number.MAX_SAFE_INTEGER);
  if (gives(o, 'queue_wait_ms'))
    set.queue_wait_ms = o.queue_wait_ms === null ? null : int(o, 'queue_wait_ms', path, 0, Number.MAX_SAFE_INTEGER);
  if (gives(o, 'closed_reason')) set.closed_reason = nullableStr(o, 'closed_reason', path, 255);
  if (gives(o, 'motivation')) set.motivation = nullableStr(o, 'motivation', path, 20_000);
  if (gives(o, 'experience')) set.experience = o.experience === null ? null : int(o, 'experience', path, 1, 6);
  if (gives(o, 'english_only')) set.english_only = bool(o, 'english_only', path);
  const out: ImportTraining = { user_id: userId, area, created_at: createdAt, set, path };
  if (ratings !== undefined) out.ratings = ratings;
  if (facilities !== undefined) out.facilities = facilities;
  if (gives(o, 'mentors')) {
    out.mentors = list(o, 'mentors', path).map((m, j) => {
      if (typeof m !== 'number' || !Number.isInteger(m) || m < 1 || m > MAX_CID)
        fail(`${path}.mentors[${j}]`, `must be a user id from 1 to ${MAX_CID}`);
      return m as number;
    });
  }
  if (gives(o, 'reports')) out.reports = list(o, 'reports', path).map((r, j) => parseReport(r, `${path}.reports[${j}]`));
  if (gives(o, 'examinations'))
    out.examinations = list(o, 'examinations', path).map((x, j) => parseExamination(x, `${path}.examinations[${j}]`));
  if (gives(o, 'timeline')) out.timeline = list(o, 'timeline', path).map((e, j) => parseTimelineEntry(e, `${path}.timeline[${j}]`));
  return out;
}
