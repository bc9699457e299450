// Facilities with tiers (contract §22): every name positions require, and every name given a tier or
// a description here, with that tier and description (none when only positions name it).
import type { Insertable } from 'kysely';
import type { Dialect, Executor } from '../../core/db/connection.js';
import type { FacilitiesTable } from '../../core/db/schema.js';

export interface FacilityRow {
  name: string;
  tier: 'T1' | 'T2' | null;
  description: string | null;
  /** Whether a row of its own exists (a PUT then updates it). */
  stored: boolean;
}

export function facilitiesRepository(db: Executor, dialect: Dialect) {
  return {
    /** Every facility, by name (byte order). */
    async list(): Promise<FacilityRow[]> {
      const [stored, required] = await Promise.all([
        db.selectFrom('facilities').select(['name', 'tier', 'description']).execute(),
        db.selectFrom('positions').select('required_facility as name').distinct().where('required_facility', 'is not', null).execute(),
      ]);
      const out = new Map<string, FacilityRow>(stored.map((f) => [f.name, { ...f, stored: true }]));
      for (const r of required)
        if (r.name !== null && !out.has(r.name)) out.set(r.name, { name: r.name, tier: null, description: null, stored: false });
      return [...out.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    },

    async find(name: string): Promise<FacilityRow | undefined> {
      const row = await db.selectFrom('facilities').select(['name', 'tier', 'description']).where('name', '=', name).executeTakeFirst();
      if (row) return { ...row, stored: true };
      const required = await db.selectFrom('positions').select('id').where('required_facility', '=', name).executeTakeFirst();
      return required ? { name, tier: null, description: null, stored: false } : undefined;
    },

    /**
     * Stores a new facility row unless one of that name exists; whether it did. On PostgreSQL a
     * concurrent insert of the same name waits for the other's commit, then finds its row.
     */
    async insertNew(row: Insertable<FacilitiesTable>): Promise<boolean> {
      const made = await db
        .insertInto('facilities')
        .values(row)
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('name')
        .executeTakeFirst();
      return made !== undefined;
    },

    /** The stored row, locked until the write ends (SQLite's write lock already serialises writers). */
    async storedForUpdate(name: string): Promise<FacilityRow | undefined> {
      const row = await db
        .selectFrom('facilities')
        .select(['name', 'tier', 'description'])
        .where('name', '=', name)
        .$if(dialect === 'postgres', (q) => q.forUpdate())
        .executeTakeFirst();
      return row ? { ...row, stored: true } : undefined;
    },

    /** Whether a position requires the name (a facility before it has a row of its own). */
    async required(name: string): Promise<boolean> {
      return (await db.selectFrom('positions').select('id').where('required_facility', '=', name).executeTakeFirst()) !== undefined;
    },

    async update(row: Insertable<FacilitiesTable>): Promise<void> {
      await db
        .updateTable('facilities')
        .set({ tier: row.tier, description: row.description, updated_at: row.updated_at })
        .where('name', '=', row.name)
        .execute();
    },
  };
}

export type FacilitiesRepository = ReturnType<typeof facilitiesRepository>;
