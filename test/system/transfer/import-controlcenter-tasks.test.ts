// `import:controlcenter` moves Control Center's tasks (contract §21) and feedback (§23): the types
// and statuses as Sector's, every field kept, the rows that cannot be Sector's skipped with the
// reason; nothing is mailed or published for them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDatabaseUrl } from '../../support/context.js';
import { readDatabase } from '../../support/db-state.js';
import { runCliAsync } from '../../support/processes.js';
import { controlCenterDatabases } from '../../support/controlcenter-db.js';

const cc = controlCenterDatabases('tasks');

// Control Center's tables as its migrations make them (tasks 2023_10_04 with
// subject_training_rating_id of 2024_02_22; feedback 2023_10_08), foreign keys left out.
const TYPE = 'App\\\\Tasks\\\\Types\\\\';
const TASKS_SQL = `
CREATE TABLE tasks (id bigint unsigned AUTO_INCREMENT PRIMARY KEY, type varchar(255) NOT NULL, status tinyint NOT NULL DEFAULT 0,
  status_comment varchar(256) NULL, message varchar(256) NULL, subject_user_id bigint unsigned NOT NULL,
  subject_training_id bigint unsigned NOT NULL, subject_training_rating_id int unsigned NULL, assignee_user_id bigint unsigned NOT NULL,
  creator_user_id bigint unsigned NULL, assignee_notified tinyint(1) NOT NULL DEFAULT 0, creator_notified tinyint(1) NOT NULL DEFAULT 0,
  created_at timestamp NULL, updated_at timestamp NULL, closed_at timestamp NULL);
CREATE TABLE feedback (id bigint unsigned AUTO_INCREMENT PRIMARY KEY, feedback text NOT NULL, submitter_user_id bigint unsigned NOT NULL,
  reference_user_id bigint unsigned NULL, reference_position_id bigint unsigned NULL, forwarded tinyint(1) NOT NULL DEFAULT 0,
  created_at timestamp NULL, updated_at timestamp NULL);
INSERT INTO tasks (id, type, status, status_comment, message, subject_user_id, subject_training_id, subject_training_rating_id,
  assignee_user_id, creator_user_id, created_at, updated_at, closed_at) VALUES
 (1, '${TYPE}RatingUpgrade', 1, 'Upgraded at the network.', NULL, 10000002, 1, NULL, 10000004, 10000001, '2026-09-01 10:00:00', '2026-09-02 10:00:00', '2026-09-02 09:00:00'),
 (2, '${TYPE}SoloEndorsement', 0, NULL, 'Ready for a solo on EKCH_TWR', 10000002, 1, NULL, 10000004, 10000001, '2026-09-03 10:00:00', '2026-09-03 10:00:00', NULL),
 (3, '${TYPE}TheoreticalExam', -1, 'Not yet', NULL, 10000002, 1, 4, 10000004, 10000001, '2026-09-04 10:00:00', '2026-09-05 08:00:00', NULL),
 (4, '${TYPE}Custom', 0, NULL, 'Please check my Norway access', 10000001, 3, NULL, 10000004, 10000001, '2026-09-06 10:00:00', '2026-09-06 10:00:00', NULL),
 (5, '${TYPE}Custom', 0, NULL, NULL, 10000001, 3, NULL, 10000004, 10000001, '2026-09-07 10:00:00', '2026-09-07 10:00:00', NULL),
 (6, '${TYPE}Bogus', 0, NULL, NULL, 10000002, 1, NULL, 10000004, 10000001, '2026-09-08 10:00:00', '2026-09-08 10:00:00', NULL),
 (7, '${TYPE}SoloEndorsement', 0, NULL, NULL, 10000005, 5, NULL, 10000004, 10000001, '2026-09-09 10:00:00', '2026-09-09 10:00:00', NULL),
 (8, '${TYPE}SoloEndorsement', 0, NULL, NULL, 10000002, 1, NULL, 10000004, NULL, '2026-09-10 10:00:00', '2026-09-10 10:00:00', NULL),
 (9, '${TYPE}SoloEndorsement', 0, NULL, NULL, 10000003, 1, NULL, 10000004, 10000001, '2026-09-11 10:00:00', '2026-09-11 10:00:00', NULL);
INSERT INTO feedback (id, feedback, submitter_user_id, reference_user_id, reference_position_id, forwarded, created_at, updated_at) VALUES
 (1, 'Very calm on a busy evening.', 10000002, 10000001, 1, 1, '2026-10-01 18:00:00', '2026-10-02 09:00:00'),
 (2, 'The ground frequency was hard to reach.', 10000003, NULL, 5, 0, '2026-10-03 18:00:00', NULL),
 (3, 'About a position long gone.', 10000003, NULL, 99, 0, '2026-10-04 18:00:00', '2026-10-04 18:00:00'),
 (4, '   ', 10000002, NULL, NULL, 0, '2026-10-05 18:00:00', '2026-10-05 18:00:00');
`;

let url: string;

beforeAll(async () => {
  url = await cc.create('7.0', TASKS_SQL);
});

afterAll(() => cc.dropAll());

const at = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);

describe('import:controlcenter: tasks and feedback', () => {
  it('moves them with their fields, skipping what cannot be Sector’s with the reason', async () => {
    const databaseUrl = freshDatabaseUrl();
    const r = await runCliAsync(['import:controlcenter', url, '--json'], { DATABASE_URL: databaseUrl });
    expect(r.code, r.stderr).toBe(0);
    const { tasks, feedback } = JSON.parse(r.stdout).report;
    expect(tasks).toEqual({
      read: 9,
      imported: 4,
      skipped: [
        { row: 'task 5', reason: 'message: is required for a custom task' },
        { row: 'task 6', reason: `unknown type App\\Tasks\\Types\\Bogus` },
        { row: 'task 7', reason: 'training 5 is not imported' },
        { row: 'task 8', reason: 'no creator' },
        { row: 'task 9', reason: "training 1 is not user 10000003's" },
      ],
      changed: [{ row: 'task 3', reason: 'declined without closed_at: closed at 2026-09-05T08:00:00Z' }],
    });
    expect(feedback).toEqual({
      read: 4,
      imported: 3,
      skipped: [{ row: 'feedback 4', reason: 'text: must be a non-empty string' }],
      changed: [{ row: 'feedback 3', reason: 'position 99 is not imported: left out' }],
    });

    const { taskRows, feedbackRows, sent } = await readDatabase(databaseUrl, async (db) => ({
      taskRows: await db
        .selectFrom('tasks as t')
        .leftJoin('trainings as tr', 'tr.id', 't.training_id')
        .select([
          't.id',
          't.type',
          't.status',
          't.subject_user_id',
          'tr.user_id as training_user',
          'tr.created_at as training_created',
          't.rating',
          't.message',
          't.creator_id',
          't.assignee_id',
          't.created_at',
          't.closed_at',
          't.closed_message',
          't.division_api_state',
        ])
        .orderBy('t.id')
        .execute(),
      feedbackRows: await db
        .selectFrom('feedback as f')
        .leftJoin('positions as p', 'p.id', 'f.position_id')
        .select(['f.id', 'f.sender_id', 'f.controller', 'p.callsign', 'f.text', 'f.actioned', 'f.created_at', 'f.updated_at'])
        .orderBy('f.id')
        .execute(),
      sent: [
        ...(await db.selectFrom('events').select('type').execute()).map((e) => e.type),
        ...(await db.selectFrom('mail_outbox').select('id').execute()).map(() => 'mail'),
      ],
    }));
    const bo = { subject_user_id: 10000002, training_user: 10000002, training_created: at('2026-05-01 09:00:00') };
    const people = { creator_id: 10000001, assignee_id: 10000004, division_api_state: null };
    expect(taskRows).toEqual([
      {
        id: 1,
        type: 'rating_upgrade',
        status: 'completed',
        ...bo,
        rating: 4,
        message: null,
        ...people,
        created_at: at('2026-09-01 10:00:00'),
        closed_at: at('2026-09-02 09:00:00'),
        closed_message: 'Upgraded at the network.',
      },
      {
        id: 2,
        type: 'solo_endorsement',
        status: 'pending',
        ...bo,
        rating: null,
        message: 'Ready for a solo on EKCH_TWR',
        ...people,
        created_at: at('2026-09-03 10:00:00'),
        closed_at: null,
        closed_message: null,
      },
      {
        id: 3,
        type: 'theory_exam',
        status: 'declined',
        ...bo,
        rating: 5,
        message: null,
        ...people,
        created_at: at('2026-09-04 10:00:00'),
        closed_at: at('2026-09-05 08:00:00'),
        closed_message: 'Not yet',
      },
      {
        id: 4,
        type: 'custom',
        status: 'pending',
        subject_user_id: 10000001,
        training_user: 10000001,
        training_created: at('2026-03-01 10:00:00'),
        rating: null,
        message: 'Please check my Norway access',
        ...people,
        created_at: at('2026-09-06 10:00:00'),
        closed_at: null,
        closed_message: null,
      },
    ]);
    expect(feedbackRows).toEqual([
      {
        id: 1,
        sender_id: 10000002,
        controller: 10000001,
        callsign: 'EKCH_TWR',
        text: 'Very calm on a busy evening.',
        actioned: 1,
        created_at: at('2026-10-01 18:00:00'),
        updated_at: at('2026-10-02 09:00:00'),
      },
      {
        id: 2,
        sender_id: 10000003,
        controller: null,
        callsign: 'EKCH_GND',
        text: 'The ground frequency was hard to reach.',
        actioned: 0,
        created_at: at('2026-10-03 18:00:00'),
        updated_at: at('2026-10-03 18:00:00'),
      },
      {
        id: 3,
        sender_id: 10000003,
        controller: null,
        callsign: null,
        text: 'About a position long gone.',
        actioned: 0,
        created_at: at('2026-10-04 18:00:00'),
        updated_at: at('2026-10-04 18:00:00'),
      },
    ]);
    expect(sent).toEqual([]);
  });
});
