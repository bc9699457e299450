// The trainings of an import (contract §18): the rows by natural key, and what each record gives
// of its ratings, facilities, mentors, reports, examinations and timeline, set-based.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { isoMicros } from '../../core/domain/time.js';
import { chunks } from '../../core/db/chunks.js';
import { type ImportAttachment, ImportError, type ImportTraining } from './import/plan.js';
import { type Keyed, keyOf, type LinkTable, replaceLinks, type Row, rowsWhereIn, writeKeyed } from './import-rows.repository.js';

export interface TrainingRefs {
  areaId(name: string, path: string): number;
  userId(id: number, path: string): number;
}

/** A link listed twice is one link. */
export function dedupe(links: Row[]): Row[] {
  return [...new Map(links.map((l) => [keyOf(Object.values(l)), l])).values()];
}

/** A training's columns from a record's fields (booleans as 0/1; the queue wait from its start). */
function columns(t: ImportTraining): Row {
  const { english_only, ...rest } = t.set;
  const out: Row = { ...rest };
  if (english_only !== undefined) out.english_only = english_only ? 1 : 0;
  // An imported start is when it left the queue: its wait counts for the queue's estimates (unless
  // the record gives the wait as stored, as an export does).
  if (t.set.started_at !== undefined && t.set.queue_wait_ms === undefined)
    out.queue_wait_ms = t.set.started_at === null ? null : Math.max(0, t.set.started_at - t.created_at);
  return out;
}

const EMPTY = {
  started_at: null,
  closed_at: null,
  closed_reason: null,
  motivation: null,
  experience: null,
  english_only: 0,
  paused_at: null,
  paused_ms: 0,
  queue_wait_ms: null,
  interest_confirmed_at: null,
  interest_deadline: null,
};

/**
 * Trainings, by (user, area, created_at): a new one needs a type and a status. Each list a record
 * gives (empty for null) replaces the stored one; an omitted one keeps it.
 */
export async function importTrainings(db: Kysely<Database>, trainings: ImportTraining[], refs: TrainingRefs): Promise<void> {
  const KEY = ['user_id', 'area_id', 'created_at'];
  const keyOfRow = (r: Row) => keyOf(KEY.map((k) => r[k]));
  const stored = new Map(
    (
      await rowsWhereIn(
        db,
        'trainings',
        'user_id',
        trainings.map((t) => t.user_id),
      )
    ).map((r) => [keyOfRow(r), r]),
  );
  const items = trainings.map((t): Keyed => {
    const key = { user_id: t.user_id, area_id: refs.areaId(t.area, `${t.path}.area`), created_at: t.created_at };
    refs.userId(t.user_id, t.path);
    for (const [j, m] of (t.mentors ?? []).entries()) refs.userId(m, `${t.path}.mentors[${j}]`);
    const row = stored.get(keyOfRow(key));
    if (row) return { stored: row, changes: columns(t) };
    for (const field of ['type', 'status'] as const) {
      if (t.set[field] === undefined)
        throw new ImportError(
          `${t.path}.${field}: is required, as training of user ${t.user_id} in ${t.area} from ${isoMicros(t.created_at)} does not exist yet`,
        );
    }
    return { stored: undefined, created: { ...key, ...EMPTY, ...columns(t) } };
  });
  const ids = await writeKeyed(db, 'trainings', KEY, items, true);
  const given = (table: LinkTable, pick: (t: ImportTraining) => Row[] | undefined, unique = true) =>
    replaceLinks(
      db,
      table,
      'training_id',
      trainings.flatMap((t, i) => {
        const links = pick(t);
        return links === undefined ? [] : [{ id: ids[i]!, links: unique ? dedupe(links) : links }];
      }),
    );
  await given('training_ratings', (t) => t.ratings?.map((rating) => ({ rating })));
  await given('training_facilities', (t) => t.facilities?.map((name) => ({ name })));
  await given('training_mentors', (t) => t.mentors?.map((user_id) => ({ user_id })));
  await given('training_reports', (t) => t.reports?.map(({ attachments: _files, ...r }) => ({ ...r, draft: r.draft ? 1 : 0 })), false);
  await given(
    'training_examinations',
    (t) => t.examinations?.map(({ examiners: _examiners, attachments: _files, ...x }) => ({ ...x })),
    false,
  );
  await importExaminers(db, trainings, ids);
  await importAttachments(db, trainings, ids);
  await given('training_timeline', (t) => t.timeline?.map((e) => ({ ...e })), false);
}

/**
 * The examiners of the examinations just written (§20), in order: each training's examinations were
 * inserted in list order, so their ids, ascending, match the list.
 */
async function importExaminers(db: Kysely<Database>, trainings: ImportTraining[], ids: number[]): Promise<void> {
  const given = trainings.flatMap((t, i) => (t.examinations === undefined ? [] : [{ id: ids[i]!, examinations: t.examinations }]));
  const written = new Map<number, number[]>();
  for (const part of chunks(given.map((g) => g.id))) {
    const rows = await db
      .selectFrom('training_examinations')
      .select(['id', 'training_id'])
      .where('training_id', 'in', part)
      .orderBy('id')
      .execute();
    for (const r of rows) written.set(r.training_id, [...(written.get(r.training_id) ?? []), r.id]);
  }
  const links = given.flatMap((g) =>
    g.examinations.flatMap((x, j) =>
      x.examiners.map((user_id, k) => ({ examination_id: written.get(g.id)![j]!, ordinal: k + 1, user_id })),
    ),
  );
  for (const part of chunks(links)) await db.insertInto('training_examiners').values(part).execute();
}

/**
 * The files of the reports and examinations just written: their new ids, read back in the order
 * they were inserted (each training's list in its order), are matched to the records' files.
 */
async function importAttachments(db: Kysely<Database>, trainings: ImportTraining[], ids: number[]): Promise<void> {
  const rows: Array<Record<string, unknown>> = [];
  for (const [table, column, pick] of [
    ['training_reports', 'report_id', (t: ImportTraining) => t.reports],
    ['training_examinations', 'examination_id', (t: ImportTraining) => t.examinations],
  ] as const) {
    const given = trainings.flatMap((t, i) => {
      const records = pick(t);
      return records?.some((r) => r.attachments?.length) ? [{ id: ids[i]!, records }] : [];
    });
    if (given.length === 0) continue;
    const stored = await db
      .selectFrom(table)
      .select(['id', 'training_id'])
      .where(
        'training_id',
        'in',
        given.map((g) => g.id),
      )
      .orderBy('id')
      .execute();
    for (const g of given) {
      const recordIds = stored.filter((r) => r.training_id === g.id).map((r) => r.id);
      g.records.forEach((r, j) => {
        for (const a of r.attachments ?? []) rows.push({ [column]: recordIds[j], ...columnsOf(a) });
      });
    }
  }
  for (const part of chunks(rows, 50))
    await db
      .insertInto('training_attachments')
      .values(part as never)
      .execute();
}

function columnsOf(a: ImportAttachment) {
  if (a.content === null) throw new ImportError(`${a.path}: its file ${a.sha256} was not given`);
  const { content, hidden, path: _path, ...rest } = a;
  return { ...rest, content, hidden: hidden ? 1 : 0 };
}
