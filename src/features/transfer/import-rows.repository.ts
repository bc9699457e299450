// Set-based building blocks of the import: a fixed number of statements per chunk of records,
// never one per record.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';

/** Records per statement: a dozen columns each stays far below both databases' parameter limits. */
export const CHUNK = 400;

export function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export type Row = Record<string, unknown>;

/** The map key of a natural key's values. */
export const keyOf = (values: unknown[]): string => JSON.stringify(values);

/** Tables the import writes; typed loosely here, as their columns are chosen at run time. */
type ImportTable = 'users' | 'positions' | 'endorsements' | 'trainings' | 'bookings';
const loose = (db: Kysely<Database>) => db as unknown as Kysely<Record<ImportTable, Row>>;

/** The stored rows whose `column` is one of `values`, one statement per chunk; the caller matches composite keys. */
export async function rowsWhereIn(db: Kysely<Database>, table: ImportTable, column: string, values: unknown[]): Promise<Row[]> {
  const out: Row[] = [];
  for (const part of chunks([...new Set(values)])) {
    out.push(...((await loose(db).selectFrom(table).selectAll().where(column, 'in', part).execute()) as Row[]));
  }
  return out;
}

/** A row that exists, and the columns of it the import changes. */
export interface RowUpdate {
  row: Row;
  columns: string[];
}

/**
 * Inserts new rows and upserts changes, one statement per chunk (and per set of changed columns for
 * updates: only those are written). A row created meanwhile takes the record's values. Returns the
 * `returning` columns.
 */
export async function writeRows(
  db: Kysely<Database>,
  table: ImportTable,
  key: string[],
  created: Row[],
  updated: RowUpdate[],
  returning: string[] = [],
): Promise<Row[]> {
  const out: Row[] = [];
  const upsert = async (rows: Row[], columns: string[]) => {
    const q = loose(db)
      .insertInto(table)
      .values(rows)
      .onConflict((oc) => oc.columns(key).doUpdateSet((eb) => Object.fromEntries(columns.map((c) => [c, eb.ref(`excluded.${c}`)]))));
    if (returning.length === 0) await q.execute();
    else out.push(...((await q.returning(returning as never).execute()) as Row[]));
  };
  for (const part of chunks(created)) {
    await upsert(
      part,
      Object.keys(part[0]!).filter((c) => !key.includes(c) && c !== 'created_at'),
    );
  }
  const shapes = new Map<string, RowUpdate[]>();
  for (const u of updated) {
    if (u.columns.length === 0) continue;
    const shape = [...u.columns].sort().join(',');
    shapes.set(shape, [...(shapes.get(shape) ?? []), u]);
  }
  for (const group of shapes.values()) {
    for (const part of chunks(group))
      await upsert(
        part.map((u) => u.row),
        part[0]!.columns,
      );
  }
  return out;
}

/** A record matched against its stored row: the changes it makes to it, or the row it creates. */
export type Keyed = { stored: Row; changes: Row } | { stored: undefined; created: Row };

/**
 * Writes records of a table by natural key (see writeRows). With `ids`, the table's rows are
 * numbered by the database: the id of each record's row is returned, in the records' order.
 */
export async function writeKeyed(db: Kysely<Database>, table: ImportTable, key: string[], items: Keyed[], ids = false): Promise<number[]> {
  const plain = (row: Row): Row => {
    if (!ids) return row;
    const { id: _id, ...rest } = row;
    return rest;
  };
  const created = items.flatMap((i) => (i.stored ? [] : [i.created]));
  const updated = items.flatMap((i) => (i.stored ? [{ row: plain({ ...i.stored, ...i.changes }), columns: Object.keys(i.changes) }] : []));
  const returned = await writeRows(db, table, key, created, [], ids ? ['id', ...key] : []);
  await writeRows(db, table, key, [], updated);
  if (!ids) return [];
  const rowKey = (row: Row) => keyOf(key.map((k) => row[k]));
  const idOf = new Map(returned.map((r) => [rowKey(r), r.id as number]));
  return items.map((i) => (i.stored ? (i.stored.id as number) : idOf.get(rowKey(i.created))!));
}

/**
 * Replaces the links (one table of pairs) of the rows whose records give a list; the links of
 * the others stay. One DELETE and one INSERT per chunk.
 */
export type LinkTable =
  | 'endorsement_areas'
  | 'endorsement_positions'
  | 'training_ratings'
  | 'training_facilities'
  | 'training_mentors'
  | 'training_reports'
  | 'training_examinations'
  | 'training_timeline';

export async function replaceLinks(
  db: Kysely<Database>,
  table: LinkTable,
  owner: 'endorsement_id' | 'training_id',
  lists: Array<{ id: number; links: Row[] }>,
): Promise<void> {
  const t = db as unknown as Kysely<Record<'links', Row>>;
  const name = table as unknown as 'links';
  for (const part of chunks(lists.map((l) => l.id))) await t.deleteFrom(name).where(owner, 'in', part).execute();
  const rows = lists.flatMap((l) => l.links.map((link) => ({ [owner]: l.id, ...link })));
  for (const part of chunks(rows)) await t.insertInto(name).values(part).execute();
}
