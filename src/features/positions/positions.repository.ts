import type { Kysely, Updateable } from 'kysely';
import type { Database, PositionRow, PositionsTable } from '../../core/db/schema.js';
import { pendingPush } from '../../core/db/predicates.js';

export function positionsRepository(db: Kysely<Database>) {
  return {
    /** Every position, sorted by callsign in byte order. */
    async list(): Promise<PositionRow[]> {
      const rows = await db.selectFrom('positions').selectAll().execute();
      // Byte order regardless of the database collation.
      return rows.sort((a, b) => (a.callsign < b.callsign ? -1 : a.callsign > b.callsign ? 1 : 0));
    },
    /** Every position's callsign. */
    async callsigns(): Promise<string[]> {
      return (await db.selectFrom('positions').select('callsign').execute()).map((p) => p.callsign);
    },
    findByCallsign(callsign: string): Promise<PositionRow | undefined> {
      return db.selectFrom('positions').selectAll().where('callsign', '=', callsign.toUpperCase()).executeTakeFirst();
    },

    /** Every area, by name. */
    areas(): Promise<Array<{ id: number; name: string }>> {
      return db.selectFrom('areas').select(['id', 'name']).orderBy('name').execute();
    },

    /** Adds the position; undefined when its callsign is taken. */
    async insert(row: Omit<PositionRow, 'id'>): Promise<PositionRow | undefined> {
      return db
        .insertInto('positions')
        .values(row)
        .onConflict((oc) => oc.column('callsign').doNothing())
        .returningAll()
        .executeTakeFirst();
    },

    /** Changes the position and holds its row to the end of the transaction; undefined when there is none. */
    async update(callsign: string, changes: Updateable<PositionsTable>): Promise<PositionRow | undefined> {
      const set = Object.keys(changes).length > 0 ? changes : { callsign };
      return db.updateTable('positions').set(set).where('callsign', '=', callsign).returningAll().executeTakeFirst();
    },

    /**
     * Bookings that keep the position: every one not deleted (past ones are the division's record
     * and name it), and deleted ones the network has still to be told of.
     */
    async bookingsKeeping(positionId: number): Promise<number> {
      const row = await db
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('position_id', '=', positionId)
        .where((eb) =>
          eb.or([
            eb('deleted', '=', 0),
            eb.exists(
              eb
                .selectFrom('network_pushes')
                .select('booking_id')
                .whereRef('network_pushes.booking_id', '=', 'bookings.id')
                .where(pendingPush),
            ),
          ]),
        )
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** Removes the position with its deleted bookings. */
    async remove(positionId: number): Promise<void> {
      await db.deleteFrom('bookings').where('position_id', '=', positionId).where('deleted', '=', 1).execute();
      await db.deleteFrom('positions').where('id', '=', positionId).execute();
    },
  };
}

export type PositionsRepository = ReturnType<typeof positionsRepository>;
