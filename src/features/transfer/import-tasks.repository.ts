// Tasks of an import (contract §21), by id when given: a stored task takes the fields a record
// gives, a new one needs its required fields; the whole row is checked against the task's rules
// before it is written. Set-based; nothing is published or mailed (an import is history).
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database } from '../../core/db/schema.js';
import { chunks } from '../../core/db/chunks.js';
import { isoMicros } from '../../core/domain/time.js';
import { ImportError } from './import/plan.js';
import { quote } from './import/quote.js';
import { checkTask, type ImportTask, TASK_REQUIRED, type TaskRules } from './import/tasks.js';
import { keyOf, type Row } from './import-rows.repository.js';

type ByIdTable = 'tasks' | 'feedback';
const loose = (db: Kysely<Database>) => db as unknown as Kysely<Record<ByIdTable, Row>>;

/** The stored rows of these ids, a chunk per statement. */
export async function rowsById(db: Kysely<Database>, table: ByIdTable, ids: Array<number | null>): Promise<Map<number, Row>> {
  const out = new Map<number, Row>();
  for (const part of chunks([...new Set(ids.filter((id): id is number => id !== null))]))
    for (const r of (await loose(db).selectFrom(table).selectAll().where('id', 'in', part).execute()) as Row[]) out.set(r.id as number, r);
  return out;
}

/** The users among `ids` (in the file, imported by now, or stored before). */
export async function knownUsers(db: Kysely<Database>, ids: number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (const part of chunks([...new Set(ids)]))
    for (const r of await db.selectFrom('users').select('id').where('id', 'in', part).execute()) out.add(r.id);
  return out;
}

/**
 * Writes whole rows: those with an id upserted by it, then (PostgreSQL) the identity moved past
 * them, then those without one inserted. Returns each row's id, in order.
 */
export async function writeById(db: Kysely<Database>, dialect: Dialect, table: ByIdTable, rows: Row[]): Promise<number[]> {
  const given = rows.filter((r) => r.id !== null);
  for (const part of chunks(given)) {
    const columns = Object.keys(part[0]!).filter((c) => c !== 'id');
    await loose(db)
      .insertInto(table)
      .values(part)
      .onConflict((oc) => oc.column('id').doUpdateSet((eb) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}`)]))))
      .execute();
  }
  // Explicit ids do not advance the identity sequence: move it past them, as the bookings do.
  if (dialect === 'postgres' && given.length > 0)
    await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), GREATEST((SELECT max(id) FROM ${sql.table(table)}), 1))`.execute(db);
  const fresh: number[] = [];
  for (const part of chunks(rows.filter((r) => r.id === null))) {
    const made = await loose(db)
      .insertInto(table)
      .values(part.map(({ id: _id, ...rest }) => rest))
      .returning('id')
      .execute();
    fresh.push(...made.map((m) => m.id as number));
  }
  return rows.map((r) => (r.id === null ? fresh.shift()! : (r.id as number)));
}

const EMPTY = {
  training_id: null,
  rating: null,
  message: null,
  closed_at: null,
  closed_message: null,
  division_api_state: null,
  division_api_error: null,
};

/** The trainings the records name, by their key (user, area, created_at), from the database. */
async function trainingIds(db: Kysely<Database>, users: number[]): Promise<{ areaId: Map<string, number>; id: Map<string, number> }> {
  const areaId = new Map((await db.selectFrom('areas').select(['id', 'name']).execute()).map((a) => [a.name, a.id]));
  const id = new Map<string, number>();
  for (const part of chunks([...new Set(users)]))
    for (const t of await db
      .selectFrom('trainings')
      .select(['id', 'user_id', 'area_id', 'created_at'])
      .where('user_id', 'in', part)
      .execute())
      id.set(keyOf([t.user_id, t.area_id, t.created_at]), t.id);
  return { areaId, id };
}

export async function importTasks(db: Kysely<Database>, dialect: Dialect, tasks: readonly ImportTask[]): Promise<void> {
  if (tasks.length === 0) return;
  const stored = await rowsById(
    db,
    'tasks',
    tasks.map((t) => t.id),
  );
  const subjectOf = (t: ImportTask) => t.set.subject_user_id ?? (stored.get(t.id ?? -1)?.subject_user_id as number | undefined);
  const people = await knownUsers(
    db,
    tasks.flatMap((t) => [t.set.subject_user_id, t.set.creator_id, t.set.assignee_id].filter((id) => id !== undefined)),
  );
  const trainings = await trainingIds(
    db,
    tasks.flatMap((t) => subjectOf(t) ?? []),
  );
  const rows = tasks.map((t): Row => {
    const before = t.id === null ? undefined : stored.get(t.id);
    if (!before)
      for (const field of TASK_REQUIRED)
        if (t.set[field] === undefined)
          throw new ImportError(
            `${t.path}.${field}: is required${t.id === null ? ' (a task without an id is always new)' : `, as task ${t.id} does not exist yet`}`,
          );
    for (const field of ['subject_user_id', 'creator_id', 'assignee_id'] as const) {
      const cid = t.set[field];
      if (cid !== undefined && !people.has(cid)) throw new ImportError(`${t.path}.${field}: unknown user ${cid}`);
    }
    const { training, division_api_state, division_api_error, ...columns } = t.set;
    const row: Row = { ...(before ?? { id: t.id, ...EMPTY }), ...columns };
    if (division_api_state !== undefined) Object.assign(row, { division_api_state, division_api_error });
    if (training !== undefined) row.training_id = training === null ? null : trainingOf(trainings, subjectOf(t)!, training, t.path);
    else if (before && before.training_id !== null && row.subject_user_id !== before.subject_user_id)
      throw new ImportError(`${t.path}.training: is required, as the task's subject_user_id changes`);
    checkTask(row as unknown as TaskRules, t.path);
    return row;
  });
  await writeById(db, dialect, 'tasks', rows);
}

function trainingOf(
  trainings: Awaited<ReturnType<typeof trainingIds>>,
  subject: number,
  training: { area: string; created_at: number },
  path: string,
): number {
  const area = trainings.areaId.get(training.area);
  if (area === undefined) throw new ImportError(`${path}.training.area: unknown area ${quote(training.area)}`);
  const id = trainings.id.get(keyOf([subject, area, training.created_at]));
  if (id === undefined)
    throw new ImportError(
      `${path}.training: unknown training of user ${subject} in ${training.area} from ${isoMicros(training.created_at)} (a training of the task's subject_user_id)`,
    );
  return id;
}
