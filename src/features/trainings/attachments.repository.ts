// Files on training reports and examinations (contract §20). The content is read only where it is
// sent; lists read the other columns.
import type { Insertable } from 'kysely';
import type { Executor } from '../../core/db/connection.js';
import type { TrainingAttachmentsTable } from '../../core/db/schema.js';
import type { AttachmentTarget } from './attachments.domain.js';

const COLUMNS = [
  'a.id',
  'a.report_id',
  'a.examination_id',
  'a.name',
  'a.type',
  'a.size',
  'a.sha256',
  'a.hidden',
  'a.uploader_id',
  'a.uploader',
  'a.created_at',
] as const;

export interface AttachmentRow {
  id: number;
  report_id: number | null;
  examination_id: number | null;
  name: string;
  type: string;
  size: number;
  sha256: string;
  hidden: number;
  uploader_id: number | null;
  uploader: string;
  created_at: number;
}

/** An attachment with the training it belongs to and what decides who sees it. */
export interface PlacedAttachmentRow extends AttachmentRow {
  training_id: number;
  area_id: number;
  user_id: number;
  /** The report's draft flag (null: on an examination). */
  draft: number | null;
  /** The examination's result (null: on a report, or not graded). */
  result: string | null;
}

export type { AttachmentTarget } from './attachments.domain.js';

export function attachmentsRepository(db: Executor) {
  const placed = () =>
    db
      .selectFrom('training_attachments as a')
      .leftJoin('training_reports as r', 'r.id', 'a.report_id')
      .leftJoin('training_examinations as x', 'x.id', 'a.examination_id')
      .innerJoin('trainings as t', (j) =>
        j.on((eb) => eb.or([eb('t.id', '=', eb.ref('r.training_id')), eb('t.id', '=', eb.ref('x.training_id'))])),
      )
      .select(COLUMNS)
      .select(['t.id as training_id', 't.area_id', 't.user_id', 'r.draft', 'x.result']);

  return {
    /** The attachments of these trainings' reports and examinations, oldest first. */
    async ofTrainings(trainingIds: readonly number[]): Promise<PlacedAttachmentRow[]> {
      if (trainingIds.length === 0) return [];
      return placed()
        .where('t.id', 'in', [...trainingIds])
        .orderBy('a.id')
        .execute();
    },

    /** One attachment with its place; undefined when there is none. */
    async find(id: number): Promise<PlacedAttachmentRow | undefined> {
      return placed().where('a.id', '=', id).executeTakeFirst();
    },

    /** The stored bytes of an attachment. */
    async content(id: number): Promise<Buffer | undefined> {
      const row = await db.selectFrom('training_attachments').select('content').where('id', '=', id).executeTakeFirst();
      return row === undefined ? undefined : Buffer.from(row.content);
    },

    /** The training a report or examination belongs to; undefined when there is none. */
    async targetOf(target: AttachmentTarget): Promise<{ training_id: number } | undefined> {
      return db
        .selectFrom(target.kind === 'report' ? 'training_reports' : 'training_examinations')
        .select(['training_id'])
        .where('id', '=', target.id)
        .executeTakeFirst();
    },

    /** How many files the report or examination carries (read under the training's lock). */
    async countOn(target: AttachmentTarget): Promise<number> {
      const row = await db
        .selectFrom('training_attachments')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where(target.kind === 'report' ? 'report_id' : 'examination_id', '=', target.id)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    async insert(row: Insertable<TrainingAttachmentsTable>): Promise<AttachmentRow> {
      return db
        .insertInto('training_attachments')
        .values(row)
        .returning([
          'id',
          'report_id',
          'examination_id',
          'name',
          'type',
          'size',
          'sha256',
          'hidden',
          'uploader_id',
          'uploader',
          'created_at',
        ])
        .executeTakeFirstOrThrow();
    },

    async remove(id: number): Promise<void> {
      await db.deleteFrom('training_attachments').where('id', '=', id).execute();
    },
  };
}

export type AttachmentsRepository = ReturnType<typeof attachmentsRepository>;
