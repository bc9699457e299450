// The bookings section of an import: created, or (with an id that exists) changed in the fields
// the record gives, checked for periods and overlaps as they will be, set-based.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database } from '../../core/db/schema.js';
import { isBookingOverlap } from '../../core/db/errors.js';
import { ImportError, type ImportBooking } from './import/plan.js';
import { bookingViewsByIds } from '../bookings/bookings.repository.js';
import { chunks } from '../../core/db/chunks.js';
import { type Row, type RowUpdate, rowsWhereIn, writeRows } from './import-rows.repository.js';

export interface BookingRefs {
  /** The user's id, refusing an unknown one with the record's path. */
  userId(id: number, path: string): number;
  /** The position's id, refusing an unknown callsign with the path. */
  positionId(callsign: string, path: string): number;
  callsignOf(positionId: number): string;
}

interface Planned {
  record: ImportBooking;
  index: number;
  /** The booking as it will be. */
  row: Row & { position_id: number; time_start: number; time_end: number; deleted: number };
  exists: boolean;
  columns: string[];
}

const REQUIRED = ['user_id', 'callsign', 'time_start', 'time_end'] as const;

/** A booking the import created (before null) or changed, as it was and as the import leaves it. */
import type { ImportedBooking } from '../bookings/changes.js';
export type { ImportedBooking };

/**
 * Applies the bookings; throws ImportError naming the record at fault. Returns each booking as
 * it was and as it is now (for the events of the import), read set-based.
 */
export async function importBookings(
  db: Kysely<Database>,
  dialect: Dialect,
  records: ImportBooking[],
  refs: BookingRefs,
  now: number,
  withViews = true,
): Promise<ImportedBooking[]> {
  if (records.length === 0) return [];
  const stored = new Map(
    (
      await rowsWhereIn(
        db,
        'bookings',
        'id',
        records.flatMap((b) => (b.id === null ? [] : [b.id])),
      )
    ).map((r) => [r.id as number, r]),
  );
  const before = new Map((await bookingViewsByIds(db, [...stored.keys()])).map((b) => [b.id, b]));
  const createdIds: number[] = [];
  const planned = records.map((record, index) => plan(record, index, stored.get(record.id ?? -1), refs, now));
  refuseOverlapsWithin(planned, refs);

  const existing = planned.filter((p) => p.exists);
  const created = planned.filter((p) => !p.exists);
  // All of it in a savepoint: an overlap with a stored booking is refused by the database,
  // after which the savepoint lets the import find the record at fault (below).
  await sql`SAVEPOINT import_bookings`.execute(db);
  try {
    // Existing bookings leave their slots first, so bookings trading places never meet on the way; the
    // same statement counts the change in their revision (calendar SEQUENCE).
    for (const part of chunks(existing.map((p) => p.row.id as number))) {
      await db
        .updateTable('bookings')
        .set({ deleted: 1, revision: sql<number>`revision + 1` })
        .where('id', 'in', part)
        .execute();
    }
    await writeRows(
      db,
      'bookings',
      ['id'],
      [],
      existing.map((p): RowUpdate => ({ row: p.row, columns: p.columns })),
    );
    await writeRows(
      db,
      'bookings',
      ['id'],
      created.filter((p) => p.record.id !== null).map((p) => p.row),
      [],
    );
    if (dialect === 'postgres' && records.some((b) => b.id !== null)) {
      // Explicit ids do not advance the identity sequence: move it past them, so that the new
      // bookings below, and later ones, are not numbered into them.
      await sql`SELECT setval(pg_get_serial_sequence('bookings', 'id'), GREATEST((SELECT max(id) FROM bookings), 1))`.execute(db);
    }
    for (const part of chunks(created.filter((p) => p.record.id === null))) {
      const inserted = await db
        .insertInto('bookings')
        .values(part.map((p) => p.row as never))
        .returning('id')
        .execute();
      createdIds.push(...inserted.map((r) => r.id));
    }
    await sql`RELEASE SAVEPOINT import_bookings`.execute(db);
  } catch (err) {
    if (!isBookingOverlap(err)) throw err;
    await sql`ROLLBACK TO SAVEPOINT import_bookings`.execute(db);
    const culprit = await overlappingStored(db, planned);
    if (culprit) throw new ImportError(`${culprit.record.path}: overlaps another booking of ${refs.callsignOf(culprit.row.position_id)}`);
    throw new ImportError('bookings: a booking overlaps one written while the import ran');
  }
  createdIds.push(...created.flatMap((p) => (p.record.id === null ? [] : [p.record.id])));
  // Moved history publishes nothing: reading every booking back would only cost memory.
  if (!withViews) return [];
  const after = await bookingViewsByIds(db, [...new Set([...before.keys(), ...createdIds])]);
  return after.map((b) => ({ before: before.get(b.id) ?? null, after: b }));
}

/** The booking a record will leave (merged with the stored one), and the columns it changes. */
function plan(record: ImportBooking, index: number, stored: Row | undefined, refs: BookingRefs, now: number): Planned {
  const { set, path } = record;
  if (!stored) {
    for (const field of REQUIRED) {
      if (set[field] === undefined) {
        throw new ImportError(
          `${path}.${field}: is required${record.id === null ? ' (a booking without an id is always new)' : `, as booking ${record.id} does not exist yet`}`,
        );
      }
    }
  }
  const changes: Row = {};
  if (set.user_id !== undefined) changes.user_id = refs.userId(set.user_id, path);
  if (set.callsign !== undefined) changes.position_id = refs.positionId(set.callsign, `${path}.callsign`);
  if (set.time_start !== undefined) changes.time_start = set.time_start;
  if (set.time_end !== undefined) changes.time_end = set.time_end;
  if (set.tag !== undefined) {
    // An imported tag is the division's choice, never a forced one.
    Object.assign(changes, {
      training: set.tag === 1 ? 1 : 0,
      exam: set.tag === 2 ? 1 : 0,
      event: set.tag === 3 ? 1 : 0,
      training_forced: 0,
    });
  }
  // Flags given one by one (an export) win over the tag.
  for (const flag of ['training', 'exam', 'event', 'training_forced'] as const)
    if (set[flag] !== undefined) changes[flag] = set[flag] ? 1 : 0;
  if (set.training === false && set.training_forced === undefined) changes.training_forced = 0;
  if (set.created_at !== undefined) changes.created_at = set.created_at;
  if (set.deleted !== undefined) changes.deleted = set.deleted ? 1 : 0;
  if (set.source !== undefined) changes.source = set.source;
  if (set.network_booking !== undefined) changes.network_booking = set.network_booking;
  // A calendar ignores an update whose SEQUENCE is not higher: a changed booking's revision never goes back.
  if (set.revision !== undefined) changes.revision = stored ? Math.max(set.revision, (stored.revision as number) + 1) : set.revision;

  const defaults = {
    ...{ training: 0, exam: 0, event: 0, training_forced: 0, deleted: 0, source: 'CC', network_booking: null },
    ...{ created_at: now, revision: 0 },
  };
  const row = {
    ...(stored ?? { ...defaults, ...(record.id === null ? {} : { id: record.id }) }),
    ...changes,
    updated_at: set.updated_at ?? now,
  } as unknown as Planned['row'];
  if (!(row.time_end > row.time_start)) throw new ImportError(`${path}.time_end: must be after time_start`);
  // deleted is always written back: the booking left its slot before the write (above).
  const columns = [...new Set([...Object.keys(changes), 'deleted', 'updated_at'])];
  return { record, index, row, exists: stored !== undefined, columns };
}

const live = (planned: Planned[]) => planned.filter((p) => p.row.deleted === 0);
const overlap = (a: Planned['row'], b: { time_start: number; time_end: number }) => a.time_start < b.time_end && b.time_start < a.time_end;

/** Refuses two bookings of the file that will overlap, naming the later record of the pair. */
function refuseOverlapsWithin(planned: Planned[], refs: BookingRefs): void {
  const byPosition = new Map<number, Planned[]>();
  for (const p of live(planned)) byPosition.set(p.row.position_id, [...(byPosition.get(p.row.position_id) ?? []), p]);
  let culprit: Planned | undefined;
  for (const list of byPosition.values()) {
    list.sort((a, b) => a.row.time_start - b.row.time_start);
    // The booking reaching furthest so far: any later start before its end overlaps it.
    let reach = list[0]!;
    for (const p of list.slice(1)) {
      if (p.row.time_start < reach.row.time_end) {
        const later = p.index > reach.index ? p : reach;
        if (!culprit || later.index < culprit.index) culprit = later;
      }
      if (p.row.time_end > reach.row.time_end) reach = p;
    }
  }
  if (culprit) throw new ImportError(`${culprit.record.path}: overlaps another booking of ${refs.callsignOf(culprit.row.position_id)}`);
}

/** The first record whose booking will overlap a stored booking the file does not change. */
async function overlappingStored(db: Kysely<Database>, planned: Planned[]): Promise<Planned | undefined> {
  const inFile = new Set(planned.flatMap((p) => (p.exists ? [p.row.id as number] : [])));
  let culprit: Planned | undefined;
  for (const part of chunks(live(planned))) {
    const rows = await db
      .selectFrom('bookings')
      .select(['id', 'position_id', 'time_start', 'time_end'])
      .where('deleted', '=', 0)
      .where((eb) =>
        eb.or(
          part.map((p) =>
            eb.and([
              eb('position_id', '=', p.row.position_id),
              eb('time_start', '<', p.row.time_end),
              eb('time_end', '>', p.row.time_start),
            ]),
          ),
        ),
      )
      .execute();
    for (const r of rows) {
      if (inFile.has(r.id)) continue;
      const hit = part.find((p) => p.row.position_id === r.position_id && overlap(p.row, r));
      if (hit && (!culprit || hit.index < culprit.index)) culprit = hit;
    }
  }
  return culprit;
}
