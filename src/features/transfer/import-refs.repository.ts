// The users a section of the import names, known in one statement per chunk: an unknown one is
// refused with the path of the field that names it, as the other sections do.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { ImportError } from './import/plan.js';
import { rowsWhereIn } from './import-rows.repository.js';

/** Checks that each named user exists (in the file, imported by now, or already stored). */
export async function refuseUnknownUsers(db: Kysely<Database>, named: ReadonlyArray<{ id: number; path: string }>): Promise<void> {
  if (named.length === 0) return;
  const known = new Set(
    (
      await rowsWhereIn(
        db,
        'users',
        'id',
        named.map((n) => n.id),
      )
    ).map((r) => r.id as number),
  );
  const unknown = named.find((n) => !known.has(n.id));
  if (unknown) throw new ImportError(`${unknown.path}: unknown user ${unknown.id}`);
}
