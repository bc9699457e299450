import type { Kysely } from 'kysely';
import type { Database, PositionRow } from '../db/schema.js';

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
  };
}

export type PositionsRepository = ReturnType<typeof positionsRepository>;
