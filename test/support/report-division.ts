// The division the staff reports are tested on (contract §25), with answers known by hand. The clock is
// 2030-06-15 12:00 UTC, so the period is July 2029 to June 2030. Denmark:
//  - 7 applications in March 2030; 3 of them completed in May; one closed by staff in May, one by the
//    student and one by the system in June; 5 first left the queue in April (one went back and left
//    again in May: still April), one was created already started in March (a start in March);
//  - the S3 queue: 2 waiting now, 5 trainings that left it in the period after 30, 41, 41, 41 and 60
//    days (median 41); examinations for S3: 2 passed, 1 failed, 1 incomplete (pass rate 66.7 %);
//  - ATC: 10 h on EKCH_TWR on 10 May, and a session from 30 April 22:00 to 1 May 02:30: 12.5 h in May,
//    2 h in April (Ada: 14.5 h); Sweden 3 h in May; members active 1 (Ada), in grace 1 (Bo), inactive 1 (Per);
//  - the Mentor: 1 trainee, reports 10, 75 and 196 days ago (1 in 30 days, 2 in 90, last 10 days ago),
//    examiner of 1 graded examination. Sweden has no trainings at all; every month before March 2030
//    holds no training figures.
import type { Kysely } from 'kysely';
import type { Database } from '../../src/core/db/schema.js';
import { ADA, BO, buildEndorsement, buildRole, buildUser } from './factories.js';
import { ADMIN, assignAdasMentor, buildStaffDivision, MENTOR, PLAIN } from './staff-division.js';

export const REPORT_NOW = Date.UTC(2030, 5, 15, 12);
export const BUDDY = 1000014;
export const SWEDEN_MOD = 1000015;
const DAY = 86_400_000;

export function buildReportDivision() {
  return buildStaffDivision({
    users: [
      buildUser({ id: BUDDY, first_name: 'Bente', last_name: 'Buddy', rating: 'S3' }),
      buildUser({ id: SWEDEN_MOD, first_name: '=Sven', last_name: 'Svensson', rating: 'C1' }),
    ],
    roles: [
      buildRole({ user_id: BUDDY, area: 'Denmark', role: 'Buddy' }),
      buildRole({ user_id: SWEDEN_MOD, area: 'Sweden', role: 'Moderator' }),
    ],
    endorsements: [
      buildEndorsement({ user_id: ADMIN, type: 'examiner', rating: 'S3', areas: ['Denmark'] }),
      buildEndorsement({ user_id: SWEDEN_MOD, type: 'visiting', rating: 'C1', areas: ['Sweden'] }),
    ],
  });
}

interface T {
  status: number;
  created: string;
  closed?: string;
  started?: string;
  waitDays?: number;
  ratings?: number[];
}

/**
 * Adds the figures' records straight to the tables (the timeline and sessions have no import form).
 * `shiftDays` moves every time by whole days, for a server whose clock cannot be pinned (the browser
 * test): its figures then fall in other months, but the pages hold the same kinds of rows.
 */
export async function addReportFigures(db: Kysely<Database>, shiftDays = 0): Promise<void> {
  const at = (iso: string) => Date.parse(iso) + shiftDays * DAY;
  const day = (date: string) => new Date(at(`${date}T00:00:00Z`)).toISOString().slice(0, 10);
  const now = REPORT_NOW + shiftDays * DAY;
  await assignAdasMentor(db);
  const dk = (await db.selectFrom('areas').select('id').where('name', '=', 'Denmark').executeTakeFirstOrThrow()).id;
  const S3 = 4;
  const add = async (t: T) => {
    const { id } = await db
      .insertInto('trainings')
      .values({
        user_id: BO,
        area_id: dk,
        type: 'Standard',
        status: t.status,
        created_at: at(t.created),
        started_at: t.started ? at(t.started) : null,
        closed_at: t.closed ? at(t.closed) : null,
        closed_reason: null,
        motivation: null,
        experience: null,
        paused_at: null,
        queue_wait_ms: t.waitDays === undefined ? null : t.waitDays * DAY,
        interest_confirmed_at: null,
        interest_deadline: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('training_ratings')
      .values((t.ratings ?? [S3]).map((rating) => ({ training_id: id, rating })))
      .execute();
    return id;
  };
  const timeline = (training_id: number, when: string, action: string, detail: unknown) =>
    db
      .insertInto('training_timeline')
      .values({ training_id, at: at(when), actor: 'cli', actor_name: null, action, detail: JSON.stringify(detail) })
      .execute();
  const started = async (id: number, when: string, to = 2) => timeline(id, when, 'status', { from: 0, to });

  // Seven applications in March 2030.
  const completed = [];
  for (const day of ['02', '05', '09']) {
    const id = await add({
      status: -1,
      created: `2030-03-${day}T10:00:00Z`,
      closed: '2030-05-20T10:00:00Z',
      started: '2030-04-11T10:00:00Z',
      waitDays: 41,
    });
    await timeline(id, `2030-03-${day}T10:00:00Z`, 'created', { type: 'Standard', status: 0, ratings: ['S3'] });
    await started(id, '2030-04-11T10:00:00Z');
    completed.push(id);
  }
  const back = await add({ status: 2, created: '2030-03-12T10:00:00Z', started: '2030-05-03T10:00:00Z', waitDays: 60 });
  await started(back, '2030-04-12T10:00:00Z');
  await timeline(back, '2030-04-20T10:00:00Z', 'status', { from: 2, to: 0 });
  await started(back, '2030-05-03T10:00:00Z', 1);
  const staffClosed = await add({
    status: -2,
    created: '2030-03-15T10:00:00Z',
    closed: '2030-05-25T10:00:00Z',
    started: '2030-04-14T10:00:00Z',
    waitDays: 30,
  });
  await started(staffClosed, '2030-04-14T10:00:00Z');
  // Created past the queue: a start at creation.
  const direct = await add({ status: 1, created: '2030-03-20T10:00:00Z', started: '2030-03-20T10:00:00Z', waitDays: 0, ratings: [5] });
  await timeline(direct, '2030-03-20T10:00:00Z', 'created', { type: 'Standard', status: 1, ratings: ['C1'] });
  // Closed from the queue by the student: never started.
  const fromQueue = await add({ status: -3, created: '2030-03-25T10:00:00Z', closed: '2030-06-02T10:00:00Z' });
  await timeline(fromQueue, '2030-06-02T10:00:00Z', 'status', { from: 0, to: -3 });
  // Older: waiting in the S3 queue, and one closed by the system in June.
  await add({ status: 0, created: '2029-01-10T10:00:00Z' });
  await add({ status: 0, created: '2029-02-10T10:00:00Z' });
  await add({ status: -4, created: '2029-01-05T10:00:00Z', closed: '2030-06-10T10:00:00Z' });

  const exam = async (training_id: number, result: 'PASSED' | 'FAILED' | 'INCOMPLETE', examiner: number, date: string) => {
    const { id } = await db
      .insertInto('training_examinations')
      .values({
        training_id,
        examiner_id: examiner,
        examination_date: day(date),
        position: 'EKCH_TWR',
        start: null,
        result,
        created_at: REPORT_NOW,
        updated_at: REPORT_NOW,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.insertInto('training_examiners').values({ examination_id: id, ordinal: 1, user_id: examiner }).execute();
  };
  await exam(completed[0]!, 'PASSED', MENTOR, '2030-05-15');
  await exam(completed[1]!, 'PASSED', ADMIN, '2030-05-16');
  await exam(completed[2]!, 'FAILED', ADMIN, '2030-05-10');
  await exam(completed[2]!, 'INCOMPLETE', ADMIN, '2030-05-12');

  const ada = (await db.selectFrom('trainings').select('id').where('user_id', '=', ADA).executeTakeFirstOrThrow()).id;
  for (const date of ['2030-06-05', '2030-04-01', '2029-12-01'])
    await db
      .insertInto('training_reports')
      .values({
        training_id: ada,
        author_id: MENTOR,
        report_date: day(date),
        content: 'Report',
        improve: null,
        position: null,
        draft: 0,
        created_at: REPORT_NOW,
        updated_at: REPORT_NOW,
      })
      .execute();

  const session = (cid: number, position: string, from: string, to: string) => ({
    cid,
    callsign: position,
    position,
    name: null,
    frequency: null,
    logon_time: at(from),
    feed_logon_time: null,
    last_seen: at(to),
    ended_at: at(to),
    source: 'feed',
  });
  await db
    .insertInto('atc_sessions')
    .values([
      session(ADA, 'EKCH_TWR', '2030-05-10T10:00:00Z', '2030-05-10T20:00:00Z'),
      session(ADA, 'EKCH_APP', '2030-04-30T22:00:00Z', '2030-05-01T02:30:00Z'),
      session(BO, 'ESSA_TWR', '2030-05-11T10:00:00Z', '2030-05-11T13:00:00Z'),
    ])
    .execute();
  await db
    .insertInto('user_area_activity')
    .values([
      { user_id: ADA, area_id: dk, active: 1, granted_at: null },
      { user_id: BO, area_id: dk, active: 1, granted_at: now - 30 * DAY },
      { user_id: PLAIN, area_id: dk, active: 0, granted_at: null },
    ])
    .execute();
}
