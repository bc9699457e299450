import { sql, type Kysely } from 'kysely';
import type { Booking, Database } from '../../core/db/schema.js';
import type { BookingListFilter } from './domain/query.js';
import { fixedStatement } from '../../core/db/fixed-statement.js';
import type { Dialect } from '../../core/db/connection.js';

// The filter list() takes, for its callers.
export type { BookingListFilter } from './domain/query.js';

/** A booking with what its JSON forms show from other tables. */
export interface BookingView extends Booking {
  callsign: string;
  first_name: string | null;
  last_name: string | null;
}

export interface BookingValues {
  user_id: number;
  position_id: number;
  time_start: number;
  time_end: number;
  training: number;
  training_forced: number;
  exam: number;
  event: number;
}

/** A stored booking's slot, as an overlap names it. */
export interface StoredSlot {
  id: number;
  position_id: number;
  time_start: number;
  time_end: number;
}

export interface Slot {
  position_id: number;
  time_start: number;
  time_end: number;
  /** The booking that moves into the slot (not a conflict with itself). */
  exceptId?: number;
}

/** Every write of a booking adds one to its revision, in the write's own statement. */
const nextRevision = sql<number>`revision + 1`;

/** The advisory-lock namespace (first key) of per-position booking locks: "SECT" in ASCII. */
const POSITION_LOCKS = 0x53454354;

/** Bookings with their position's callsign and the user's name (the API's booking view). */
const bookingViews = (db: Kysely<Database>) =>
  db
    .selectFrom('bookings as b')
    .innerJoin('positions as p', 'p.id', 'b.position_id')
    .innerJoin('users as u', 'u.id', 'b.user_id')
    .selectAll('b')
    .select(['p.callsign', 'u.first_name', 'u.last_name']);

// A single create's statements (the commonest write), built and compiled once (src/core/db/fixed-statement.ts).
const oneView = fixedStatement((db) => bookingViews(db).where('b.id', 'in', [0]).orderBy('b.id'));
const oneUser = fixedStatement((db) => db.selectFrom('users').select(['id', 'rating']).where('id', 'in', [0]));
const positionColumns = ['id', 'callsign', 'rating', 'required_facility', 'area_id'] as const;
const onePosition = fixedStatement((db) => db.selectFrom('positions').select(positionColumns).where('callsign', 'in', ['']));
const oneUsersFacility = fixedStatement((db) =>
  db
    .selectFrom('endorsements')
    .select(['user_id', 'rating', 'valid_from', 'valid_to', 'revoked'])
    .where('user_id', 'in', [0])
    .where('type', '=', 'facility')
    .where('rating', 'in', ['']),
);
/** A new booking's columns, in the order insertOne passes their values. */
const insertOne = fixedStatement((db) =>
  db
    .insertInto('bookings')
    .values({
      user_id: 0,
      position_id: 0,
      time_start: 0,
      time_end: 0,
      training: 0,
      training_forced: 0,
      exam: 0,
      event: 0,
      source: '',
      network_booking: null,
      deleted: 0,
      created_at: 0,
      updated_at: 0,
    })
    .returning('id'),
);

/** Bookings by id, deleted ones included, in id order: one statement per chunk of ids (the import reads them too). */
export async function bookingViewsByIds(db: Kysely<Database>, ids: number[]): Promise<BookingView[]> {
  if (ids.length === 1) return (await oneView(db, ids)).rows;
  const out: BookingView[] = [];
  for (let i = 0; i < ids.length; i += 400)
    out.push(
      ...(await bookingViews(db)
        .where('b.id', 'in', ids.slice(i, i + 400))
        .orderBy('b.id')
        .execute()),
    );
  return out;
}

/** Works on the base connection or on a transaction alike. */
export function bookingsRepository(db: Kysely<Database>, dialect: Dialect) {
  const view = () => bookingViews(db);

  return {
    /** Live bookings matching the filter, in list order (time_start, then id). */
    list(f: BookingListFilter = {}): Promise<BookingView[]> {
      let q = view().where('b.deleted', '=', 0);
      // Overlapping the window: ending after its start, starting before its end.
      if (f.from !== undefined) q = q.where('b.time_end', '>', f.from);
      if (f.to !== undefined) q = q.where('b.time_start', '<', f.to);
      if (f.callsign !== undefined) q = q.where('p.callsign', '=', f.callsign);
      if (f.cid !== undefined) q = q.where('b.user_id', '=', f.cid);
      // After the cursor in the list order: a later start, or the same start and a higher id.
      const after = f.after;
      if (after !== undefined) {
        q = q.where((eb) =>
          eb.or([
            eb('b.time_start', '>', after.time_start),
            eb.and([eb('b.time_start', '=', after.time_start), eb('b.id', '>', after.id)]),
          ]),
        );
      }
      q = q.orderBy('b.time_start').orderBy('b.id');
      if (f.limit !== undefined) q = q.limit(f.limit);
      return q.execute();
    },

    /** Bookings by id, deleted ones included, in id order. */
    viewsByIds: (ids: number[]): Promise<BookingView[]> => bookingViewsByIds(db, ids),

    /** How many bookings are live (not deleted): one COUNT over the list index. */
    async countLive(): Promise<number> {
      const r = await db
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('deleted', '=', 0)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /** Any booking by id, deleted ones included. */
    findById(id: number): Promise<BookingView | undefined> {
      return view().where('b.id', '=', id).executeTakeFirst();
    },

    /**
     * PostgreSQL: holds the booking's row to the end of the transaction so two writes of it queue. Only
     * the bookings table is locked: after a wait PostgreSQL re-checks a join's conditions and could drop
     * the row. Read the booking after this. (SQLite writes one at a time.)
     */
    async lockById(id: number): Promise<void> {
      await db.selectFrom('bookings').select('id').where('id', '=', id).forUpdate().execute();
    },

    findPosition(id: number) {
      return db
        .selectFrom('positions')
        .select(['id', 'callsign', 'rating', 'required_facility', 'area_id'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    /** Users by id (a booking's, or a batch's: up to a few hundred ids). */
    findUsers(ids: readonly number[]): Promise<Array<{ id: number; rating: number }>> {
      if (ids.length === 0) return Promise.resolve([]);
      if (ids.length === 1) return oneUser(db, ids).then((r) => r.rows);
      return db.selectFrom('users').select(['id', 'rating']).where('id', 'in', ids).execute();
    },

    /** Positions by callsign (a booking's, or a batch's). */
    findPositionsByCallsign(callsigns: readonly string[]) {
      if (callsigns.length === 0) return Promise.resolve([]);
      if (callsigns.length === 1) return onePosition(db, callsigns).then((r) => r.rows);
      return db.selectFrom('positions').select(positionColumns).where('callsign', 'in', callsigns).execute();
    },

    /** The users' facility endorsements for these facilities, in any state (the domain decides which count). */
    facilityEndorsementsOf(userIds: readonly number[], facilities: readonly string[]) {
      if (userIds.length === 0 || facilities.length === 0) return Promise.resolve([]);
      if (userIds.length === 1 && facilities.length === 1)
        return oneUsersFacility(db, [userIds[0], 'facility', facilities[0]]).then((r) => r.rows);
      return db
        .selectFrom('endorsements')
        .select(['user_id', 'rating', 'valid_from', 'valid_to', 'revoked'])
        .where('user_id', 'in', userIds)
        .where('type', '=', 'facility')
        .where('rating', 'in', facilities)
        .execute();
    },

    /**
     * PostgreSQL: queues writers of the same positions (bookings, and a position's removal). The
     * exclusion constraint alone refuses overlaps, but two overlapping inserts would wait on each
     * other until deadlock_timeout aborts one. Returns those of the positions that exist, read after
     * the locks: one removed while this waited is not among them.
     */
    async lockPositions(positionIds: readonly number[]): Promise<Set<number>> {
      // In ascending order whatever the caller's (unnest reads an array in order), so two writers
      // sharing positions queue instead of deadlocking; one statement however many positions.
      const ids = [...new Set(positionIds)].sort((a, b) => a - b);
      if (ids.length === 0) return new Set();
      await sql`SELECT pg_advisory_xact_lock(${POSITION_LOCKS}, p) FROM unnest(${ids}::integer[]) AS p`.execute(db);
      return new Set((await db.selectFrom('positions').select('id').where('id', 'in', ids).execute()).map((r) => r.id));
    },

    /**
     * Live bookings whose half-open periods overlap any of the slots on its position (a slot's own
     * booking, exceptId, aside), in id order, in one statement: what a 409 names.
     */
    async overlapping(slots: readonly Slot[]): Promise<StoredSlot[]> {
      if (slots.length === 0) return [];
      return db
        .selectFrom('bookings')
        .select(['id', 'position_id', 'time_start', 'time_end'])
        .where('deleted', '=', 0)
        .where((eb) =>
          eb.or(
            slots.map((s) =>
              eb.and([
                eb('position_id', '=', s.position_id),
                eb('time_start', '<', s.time_end),
                eb('time_end', '>', s.time_start),
                ...(s.exceptId !== undefined ? [eb('id', '!=', s.exceptId)] : []),
              ]),
            ),
          ),
        )
        .orderBy('id')
        .execute();
    },

    /**
     * Inserts bookings in one statement; their ids in the rows' order. Both databases number the rows
     * of one INSERT in its VALUES order, but neither promises RETURNING's order, hence the sort.
     */
    async insertMany(rows: ReadonlyArray<BookingValues & { source: string }>, now: number): Promise<number[]> {
      if (rows.length === 1) {
        const b = rows[0]!;
        const values = [b.user_id, b.position_id, b.time_start, b.time_end, b.training, b.training_forced, b.exam, b.event, b.source];
        return (await insertOne(db, [...values, null, 0, now, now])).rows.map((r) => r.id);
      }
      const inserted = await db
        .insertInto('bookings')
        .values(rows.map((values) => ({ ...values, network_booking: null, deleted: 0, created_at: now, updated_at: now })))
        .returning('id')
        .execute();
      return inserted.map((r) => r.id).sort((a, b) => a - b);
    },

    /** Updates a live booking; false when it is (by now) deleted. */
    async update(id: number, values: BookingValues, now: number): Promise<boolean> {
      const r = await db
        .updateTable('bookings')
        .set({ ...values, updated_at: now, revision: nextRevision })
        .where('id', '=', id)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },

    /** Bookings by id, held to the end of the transaction on PostgreSQL (SQLite writes one at a time). */
    async lockedViews(ids: number[]): Promise<BookingView[]> {
      if (dialect === 'postgres') await db.selectFrom('bookings').select('id').where('id', 'in', ids).forUpdate().execute();
      return bookingViewsByIds(db, ids);
    },

    /** Soft-deletes the live ones of these bookings; returns those it deleted. */
    async softDeleteMany(ids: number[], now: number): Promise<number[]> {
      const rows = await db
        .updateTable('bookings')
        .set({ deleted: 1, updated_at: now, revision: nextRevision })
        .where('id', 'in', ids)
        .where('deleted', '=', 0)
        .returning('id')
        .execute();
      return rows.map((r) => r.id);
    },

    /** Soft-deletes a live booking; false when it was already deleted. */
    async softDelete(id: number, now: number): Promise<boolean> {
      const r = await db
        .updateTable('bookings')
        .set({ deleted: 1, updated_at: now, revision: nextRevision })
        .where('id', '=', id)
        .where('deleted', '=', 0)
        .executeTakeFirst();
      return r.numUpdatedRows > 0n;
    },
  };
}

export type BookingsRepository = ReturnType<typeof bookingsRepository>;
