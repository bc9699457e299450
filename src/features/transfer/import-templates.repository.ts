// Report templates of an import (contract §20), by (area, name): a new one is added, a stored one
// takes the file's text and its update time, keeping its creation; set-based, a chunk per statement.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { chunks } from '../../core/db/chunks.js';
import type { ImportTemplate } from './import/plan.js';

export async function importTemplates(
  db: Kysely<Database>,
  templates: readonly ImportTemplate[],
  areaId: (name: string, path: string) => number,
  now: number,
): Promise<void> {
  for (const part of chunks([...templates])) {
    await db
      .insertInto('report_templates')
      .values(
        part.map((t) => ({
          area_id: areaId(t.area, `${t.path}.area`),
          name: t.name,
          content: t.content,
          created_at: t.created_at ?? now,
          updated_at: t.updated_at ?? t.created_at ?? now,
        })),
      )
      .onConflict((oc) =>
        oc.columns(['area_id', 'name']).doUpdateSet((eb) => ({
          content: eb.ref('excluded.content'),
          updated_at: eb.ref('excluded.updated_at'),
        })),
      )
      .execute();
  }
}
