// What is recorded about a training (contract §18): its reports and timeline (its examinations: examinations.repository.ts).
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../core/db/connection.js';
import type { TrainingReportsTable, TrainingTimelineTable } from '../../core/db/schema.js';

export type ReportRow = Selectable<TrainingReportsTable>;
export type TimelineRow = Selectable<TrainingTimelineTable>;

export function trainingRecordsRepository(db: Executor) {
  return {
    async addReport(row: Insertable<TrainingReportsTable>): Promise<ReportRow> {
      return db.insertInto('training_reports').values(row).returningAll().executeTakeFirstOrThrow();
    },

    /** A training's reports, by date then id; drafts only when asked for. */
    reports(trainingId: number, withDrafts: boolean): Promise<ReportRow[]> {
      return db
        .selectFrom('training_reports')
        .selectAll()
        .where('training_id', '=', trainingId)
        .$if(!withDrafts, (q) => q.where('draft', '=', 0))
        .orderBy('report_date')
        .orderBy('id')
        .execute();
    },

    /** A report of this training; undefined when it has none of this id. */
    report(trainingId: number, reportId: number): Promise<ReportRow | undefined> {
      return db
        .selectFrom('training_reports')
        .selectAll()
        .where('id', '=', reportId)
        .where('training_id', '=', trainingId)
        .executeTakeFirst();
    },

    async updateReport(id: number, patch: Updateable<TrainingReportsTable>): Promise<ReportRow> {
      return db.updateTable('training_reports').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
    },

    async deleteReport(id: number): Promise<void> {
      await db.deleteFrom('training_reports').where('id', '=', id).execute();
    },

    async addTimeline(entries: ReadonlyArray<Insertable<TrainingTimelineTable>>): Promise<void> {
      if (entries.length > 0)
        await db
          .insertInto('training_timeline')
          .values([...entries])
          .execute();
    },

    timeline(trainingId: number): Promise<TimelineRow[]> {
      return db.selectFrom('training_timeline').selectAll().where('training_id', '=', trainingId).orderBy('id').execute();
    },
  };
}

export type TrainingRecordsRepository = ReturnType<typeof trainingRecordsRepository>;
