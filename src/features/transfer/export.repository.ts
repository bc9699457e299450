// Reads everything an export holds: one statement per table, whatever the division's size.
import type { Kysely, Selectable } from 'kysely';
import type { Database } from '../../core/db/schema.js';

type Rows<T extends keyof Database> = Array<Selectable<Database[T]>>;

export interface DivisionRows {
  areas: Rows<'areas'>;
  users: Rows<'users'>;
  activity: Rows<'user_area_activity'>;
  positions: Rows<'positions'>;
  endorsements: Rows<'endorsements'>;
  endorsementAreas: Rows<'endorsement_areas'>;
  endorsementPositions: Rows<'endorsement_positions'>;
  roles: Rows<'roles'>;
  trainings: Rows<'trainings'>;
  trainingRatings: Rows<'training_ratings'>;
  trainingFacilities: Rows<'training_facilities'>;
  trainingMentors: Rows<'training_mentors'>;
  trainingReports: Rows<'training_reports'>;
  trainingExaminations: Rows<'training_examinations'>;
  trainingExaminers: Rows<'training_examiners'>;
  trainingTimeline: Rows<'training_timeline'>;
  /** Without their content: an export writes each file apart (exportRepository.attachmentContent). */
  trainingAttachments: Array<Omit<Selectable<Database['training_attachments']>, 'content'>>;
  bookings: Rows<'bookings'>;
  reportTemplates: Rows<'report_templates'>;
  facilities: Rows<'facilities'>;
  tasks: Rows<'tasks'>;
  feedback: Rows<'feedback'>;
  feedbackComments: Rows<'feedback_comments'>;
  // Votes, sweatbox sessions and members' settings (contract §23, §24).
  votes: Rows<'votes'>;
  voteOptions: Rows<'vote_options'>;
  voteVoters: Rows<'vote_voters'>;
  sweatbox: Rows<'sweatbox_sessions'>;
  memberSettings: Rows<'member_settings'>;
  mailChoices: Rows<'mail_choices'>;
}

/** Every row of the division's tables; call inside one transaction for one moment. Order is the presenter's (collations differ). */
async function readDivision(db: Kysely<Database>): Promise<DivisionRows> {
  return {
    areas: await db.selectFrom('areas').selectAll().execute(),
    users: await db.selectFrom('users').selectAll().execute(),
    activity: await db.selectFrom('user_area_activity').selectAll().execute(),
    positions: await db.selectFrom('positions').selectAll().execute(),
    endorsements: await db.selectFrom('endorsements').selectAll().execute(),
    endorsementAreas: await db.selectFrom('endorsement_areas').selectAll().execute(),
    endorsementPositions: await db.selectFrom('endorsement_positions').selectAll().execute(),
    roles: await db.selectFrom('roles').selectAll().execute(),
    trainings: await db.selectFrom('trainings').selectAll().execute(),
    trainingRatings: await db.selectFrom('training_ratings').selectAll().execute(),
    trainingFacilities: await db.selectFrom('training_facilities').selectAll().execute(),
    trainingMentors: await db.selectFrom('training_mentors').selectAll().execute(),
    trainingReports: await db.selectFrom('training_reports').selectAll().execute(),
    trainingExaminations: await db.selectFrom('training_examinations').selectAll().execute(),
    trainingExaminers: await db.selectFrom('training_examiners').selectAll().execute(),
    trainingTimeline: await db.selectFrom('training_timeline').selectAll().execute(),
    trainingAttachments: await db
      .selectFrom('training_attachments')
      .select(['id', 'report_id', 'examination_id', 'name', 'type', 'size', 'sha256', 'hidden', 'uploader_id', 'uploader', 'created_at'])
      .execute(),
    bookings: await db.selectFrom('bookings').selectAll().execute(),
    reportTemplates: await db.selectFrom('report_templates').selectAll().execute(),
    facilities: await db.selectFrom('facilities').selectAll().execute(),
    tasks: await db.selectFrom('tasks').selectAll().execute(),
    feedback: await db.selectFrom('feedback').selectAll().execute(),
    feedbackComments: await db.selectFrom('feedback_comments').selectAll().execute(),
    votes: await db.selectFrom('votes').selectAll().execute(),
    voteOptions: await db.selectFrom('vote_options').selectAll().execute(),
    voteVoters: await db.selectFrom('vote_voters').selectAll().execute(),
    sweatbox: await db.selectFrom('sweatbox_sessions').selectAll().execute(),
    memberSettings: await db.selectFrom('member_settings').selectAll().execute(),
    mailChoices: await db.selectFrom('mail_choices').selectAll().execute(),
  };
}

export function exportRepository(db: Kysely<Database>) {
  return {
    readDivision: () => readDivision(db),
    /** The bytes of a file by their hash (the same bytes wherever they are attached). */
    async attachmentContent(sha256: string): Promise<Buffer | undefined> {
      const row = await db.selectFrom('training_attachments').select('content').where('sha256', '=', sha256).limit(1).executeTakeFirst();
      return row === undefined ? undefined : Buffer.from(row.content);
    },
  };
}

export type ExportRepository = ReturnType<typeof exportRepository>;
