// Report templates (contract §20): Markdown starting texts kept per area.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../core/db/connection.js';
import type { ReportTemplatesTable } from '../../core/db/schema.js';

export type TemplateRow = Selectable<ReportTemplatesTable> & { area: string };

export function reportTemplatesRepository(db: Executor) {
  const withArea = () =>
    db.selectFrom('report_templates as t').innerJoin('areas as a', 'a.id', 't.area_id').selectAll('t').select('a.name as area');
  return {
    /** The templates of these areas (every area when null), by area then name. */
    list(areaIds: readonly number[] | null): Promise<TemplateRow[]> {
      return withArea()
        .$if(areaIds !== null, (q) => q.where('t.area_id', 'in', [...areaIds!, -1]))
        .orderBy('a.name')
        .orderBy('t.name')
        .orderBy('t.id')
        .execute();
    },

    find(id: number): Promise<TemplateRow | undefined> {
      return withArea().where('t.id', '=', id).executeTakeFirst();
    },

    /** The new row, or undefined when the area already has a template of this name. */
    async add(row: Insertable<ReportTemplatesTable>): Promise<number | undefined> {
      const made = await db
        .insertInto('report_templates')
        .values(row)
        .onConflict((oc) => oc.columns(['area_id', 'name']).doNothing())
        .returning('id')
        .executeTakeFirst();
      return made?.id;
    },

    /** False when another template of the area has this name. */
    async update(id: number, patch: Updateable<ReportTemplatesTable>): Promise<boolean> {
      const clash = await db
        .selectFrom('report_templates as t')
        .select('t.id')
        .where('t.id', '<>', id)
        .where('t.name', '=', patch.name as string)
        .where('t.area_id', '=', db.selectFrom('report_templates').select('area_id').where('id', '=', id))
        .executeTakeFirst();
      if (clash) return false;
      await db.updateTable('report_templates').set(patch).where('id', '=', id).execute();
      return true;
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('report_templates').where('id', '=', id).execute();
    },
  };
}

export type ReportTemplatesRepository = ReturnType<typeof reportTemplatesRepository>;
