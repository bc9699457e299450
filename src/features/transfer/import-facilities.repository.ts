// Facility tiers of an import (contract §22), by name: a new name is added, a stored one takes the
// file's tier (and its description when the file gives one); set-based, a chunk per statement.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { chunks } from '../../core/db/chunks.js';
import type { ImportFacility } from './import/plan.js';

export async function importFacilities(db: Kysely<Database>, facilities: readonly ImportFacility[], now: number): Promise<void> {
  // Those giving a description and those keeping the stored one are two statements: one upsert sets the same columns for every row.
  const given = facilities.filter((f) => f.description !== undefined);
  const kept = facilities.filter((f) => f.description === undefined);
  for (const [rows, withDescription] of [
    [given, true],
    [kept, false],
  ] as const) {
    for (const part of chunks([...rows])) {
      await db
        .insertInto('facilities')
        .values(part.map((f) => ({ name: f.name, tier: f.tier, description: f.description ?? null, updated_at: f.updated_at ?? now })))
        .onConflict((oc) =>
          oc.column('name').doUpdateSet({
            tier: sql`excluded.tier`,
            updated_at: sql`excluded.updated_at`,
            ...(withDescription ? { description: sql`excluded.description` } : {}),
          }),
        )
        .execute();
    }
  }
}
