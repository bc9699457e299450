// What is recorded about a training (contract §18): its reports, examinations and timeline.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Executor } from '../../core/db/connection.js';
import type { TrainingExaminationsTable, TrainingReportsTable, TrainingTimelineTable } from '../../core/db/schema.js';

export type ReportRow = Selectable<TrainingReportsTable>;
export type ExaminationRow = Selectable<TrainingExaminationsTable>;
export type TimelineRow = Selectable<TrainingTimelineTable>;
/** An examination with what an overview shows beside it. */
export type ExaminationOverviewRow = ExaminationRow & { user_id: number; area_id: number };

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

    async addExamination(row: Insertable<TrainingExaminationsTable>): Promise<ExaminationRow> {
      return db.insertInto('training_examinations').values(row).returningAll().executeTakeFirstOrThrow();
    },

    examinations(trainingId: number): Promise<ExaminationRow[]> {
      return db
        .selectFrom('training_examinations')
        .selectAll()
        .where('training_id', '=', trainingId)
        .orderBy('examination_date')
        .orderBy('id')
        .execute();
    },

    /** Examinations of trainings in these areas (all when null), by date: the staff's overview. */
    examinationsIn(areaIds: readonly number[] | null, limit = 200): Promise<ExaminationOverviewRow[]> {
      return db
        .selectFrom('training_examinations as x')
        .innerJoin('trainings as t', 't.id', 'x.training_id')
        .selectAll('x')
        .select(['t.user_id', 't.area_id'])
        .$if(areaIds !== null, (q) => q.where('t.area_id', 'in', [...areaIds!, -1]))
        .orderBy('x.examination_date', 'desc')
        .orderBy('x.id', 'desc')
        .limit(limit)
        .execute();
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
