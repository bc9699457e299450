// Tasks (contract §21) and feedback (§23) in the export and the import: every field written by id
// and read back to the same bytes, rows and API views; a second import changes a task by id and
// keeps what it does not give; a new one is numbered after the imported ids; bad records are
// refused in one line naming their path and change nothing; an import sends and publishes nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, freshDatabaseUrl, type TestContext, writeImportFile } from '../../support/context.js';
import { ADA, BO, buildDivision, buildPosition, buildRole, buildTraining, buildUser } from '../../support/factories.js';
import { tableRows } from '../../support/db-state.js';
import { runCli } from '../../support/processes.js';

const CY = 1000003;
const TRAINING = { area: 'Denmark', created_at: '2025-03-01T10:00:00.000000Z' };
const DIVISION = buildDivision({
  users: [buildUser(), buildUser({ id: BO, first_name: 'Bo', last_name: 'Ek', rating: 'S2' }), buildUser({ id: CY, first_name: 'Cy' })],
  positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP')],
  roles: [buildRole({ user_id: ADA, role: 'Mentor' }), buildRole({ user_id: CY, role: 'Moderator' })],
  trainings: [buildTraining({ user_id: BO, status: 2, ratings: ['S3'], mentors: [ADA] })],
});

/** As an export writes them: every field, by id. */
const TASKS = [
  {
    id: 3,
    type: 'rating_upgrade',
    status: 'completed',
    subject_user_id: BO,
    training: TRAINING,
    rating: 'S3',
    message: 'Passed the exam on EKCH_APP.',
    creator_id: ADA,
    assignee_id: CY,
    created_at: '2026-04-01T10:00:00.000000Z',
    closed_at: '2026-04-02T09:30:00.250000Z',
    closed_message: 'Upgraded.',
    division_api: { state: 'refused', error: 'The hub says: member not in division' },
  },
  {
    id: 7,
    type: 'solo_endorsement',
    status: 'pending',
    subject_user_id: BO,
    training: TRAINING,
    rating: null,
    message: null,
    creator_id: ADA,
    assignee_id: CY,
    created_at: '2026-04-03T10:00:00.000000Z',
    closed_at: null,
    closed_message: null,
    division_api: null,
  },
  {
    id: 8,
    type: 'theory_exam',
    status: 'withdrawn',
    subject_user_id: BO,
    training: TRAINING,
    rating: 'S3',
    message: null,
    creator_id: ADA,
    assignee_id: CY,
    created_at: '2026-04-04T10:00:00.000000Z',
    closed_at: '2026-04-04T11:00:00.000000Z',
    closed_message: null,
    division_api: { state: 'sent', error: null },
  },
  {
    id: 12,
    type: 'custom',
    status: 'declined',
    subject_user_id: ADA,
    training: null,
    rating: null,
    message: 'Please add me to the events team.',
    creator_id: ADA,
    assignee_id: CY,
    created_at: '2026-04-05T10:00:00.000000Z',
    closed_at: '2026-04-06T10:00:00.000000Z',
    closed_message: 'Not this season.',
    division_api: null,
  },
];
const FEEDBACK = [
  {
    id: 4,
    sender_id: BO,
    controller: 1234567,
    position: 'EKCH_TWR',
    text: 'Very calm on a busy evening.',
    actioned: true,
    comments: [
      { author_id: CY, text: 'Passed on to the controller.', created_at: '2026-05-02T10:00:00.000000Z' },
      { author_id: 1999999, text: 'A comment by someone gone since.', created_at: '2026-05-01T10:00:00.000000Z' },
    ],
    created_at: '2026-05-01T09:00:00.000000Z',
    updated_at: '2026-05-02T10:00:00.000000Z',
  },
  {
    id: 9,
    sender_id: ADA,
    controller: null,
    position: null,
    text: 'The ATIS was out of date.',
    actioned: false,
    comments: [],
    created_at: '2026-05-03T09:00:00.000000Z',
    updated_at: '2026-05-03T09:00:00.000000Z',
  },
];

type Doc = { tasks?: unknown[]; feedback?: unknown[] };

describe('tasks and feedback in the export and the import', () => {
  let a: TestContext;
  let b: TestContext;
  const exported = async (ctx: TestContext) => JSON.parse(await ctx.services.exports.text()) as Doc;
  beforeAll(async () => {
    [a, b] = await Promise.all([createTestContext(), createTestContext()]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it('leaves both sections out while there are none', async () => {
    await a.load(DIVISION);
    expect(Object.keys(await exported(a))).not.toContain('tasks');
    expect(Object.keys(await exported(a))).not.toContain('feedback');
  });

  it('writes every field by id; an import of the export gives the same bytes and the same tasks; nothing is sent', async () => {
    const quiet = ['events', 'mail_outbox', 'division_requests'] as const;
    const before = await tableRows(a.databaseUrl, quiet);
    const summary = await a.services.imports.run({ tasks: TASKS, feedback: FEEDBACK });
    expect(summary).toMatchObject({ tasks: 4, feedback: 2 });
    expect(await tableRows(a.databaseUrl, quiet)).toEqual(before);
    const text = await a.services.exports.text();
    const doc = JSON.parse(text) as Doc;
    expect(doc.tasks).toEqual(TASKS);
    expect(doc.feedback).toEqual(FEEDBACK);
    await b.load(doc);
    expect(await b.services.exports.text()).toBe(text);
    // Feedback names its position by callsign: position ids are the importing database's own.
    const rows = ['tasks', 'feedback_comments'] as const;
    expect(await tableRows(b.databaseUrl, rows)).toEqual(await tableRows(a.databaseUrl, rows));
    expect(await b.services.tasks.list({})).toEqual(await a.services.tasks.list({}));
    expect(await b.services.tasks.get(3)).toMatchObject({ rating: 'S3', division_api: { state: 'refused' }, closed_message: 'Upgraded.' });
  });

  it('changes a task by id and keeps what the record does not give; a task without an id is numbered after the imported ones', async () => {
    await b.load({ tasks: [{ id: 7, status: 'completed', closed_at: '2026-04-09T10:00:00Z', closed_message: 'Solo issued.' }] });
    expect(await b.services.tasks.get(7)).toMatchObject({
      type: 'solo_endorsement',
      status: 'completed',
      subject_user_id: BO,
      closed_at: '2026-04-09T10:00:00.000000Z',
      closed_message: 'Solo issued.',
    });
    const custom = { type: 'custom', status: 'pending', subject_user_id: ADA, message: 'Hello', creator_id: ADA, assignee_id: CY };
    await b.load({ tasks: [{ ...custom, created_at: '2026-06-01T10:00:00Z' }], feedback: [{ id: 4, actioned: false, comments: null }] });
    expect((await b.services.tasks.list({})).map((t) => t.id)).toContain(13);
    const feedback = (await exported(b)).feedback as Array<{ id: number; actioned: boolean; comments: unknown[]; text: string }>;
    expect(feedback.find((f) => f.id === 4)).toMatchObject({ actioned: false, comments: [], text: 'Very calm on a busy evening.' });
  });

  it('refuses bad records by their path and changes nothing', async () => {
    const before = await b.services.exports.text();
    const task = (over: Record<string, unknown>) => ({ tasks: [{ ...TASKS[0], id: 50, ...over }] });
    const refusals: Array<[unknown, RegExp]> = [
      [task({ assignee_id: 2000009 }), /^tasks\[0\]\.assignee_id: unknown user 2000009$/],
      [task({ creator_id: 2000009 }), /^tasks\[0\]\.creator_id: unknown user 2000009$/],
      [
        task({ training: { area: 'Denmark', created_at: '2020-01-01T00:00:00Z' } }),
        /^tasks\[0\]\.training: unknown training of user 1000002/,
      ],
      [task({ training: null }), /^tasks\[0\]\.training: is required for a rating_upgrade task$/],
      [task({ rating: null }), /^tasks\[0\]\.rating: is required for a rating_upgrade task$/],
      [task({ status: 'pending' }), /^tasks\[0\]\.closed_at: must be null for a pending task$/],
      [task({ type: 'upgrade' }), /^tasks\[0\]\.type: must be one of rating_upgrade, solo_endorsement, theory_exam, custom/],
      [{ tasks: [{ id: 51, status: 'pending' }] }, /^tasks\[0\]\.type: is required, as task 51 does not exist yet$/],
      [{ tasks: [{ ...TASKS[3], id: 12, message: null }] }, /^tasks\[0\]\.message: is required for a custom task$/],
      [{ tasks: [TASKS[0], TASKS[0]] }, /^tasks\[1\]: duplicates tasks\[0\] \(same id\)$/],
      [{ feedback: [{ ...FEEDBACK[0], id: 60, sender_id: 2000009 }] }, /^feedback\[0\]\.sender_id: unknown user 2000009$/],
      [{ feedback: [{ ...FEEDBACK[0], id: 60, position: 'ESSA_TWR' }] }, /^feedback\[0\]\.position: unknown position "ESSA_TWR"$/],
      [{ feedback: [{ ...FEEDBACK[0], id: 60, text: '' }] }, /^feedback\[0\]\.text: must be a non-empty string$/],
      [{ feedback: [{ ...FEEDBACK[0], id: 60, comments: [{ author_id: CY }] }] }, /^feedback\[0\]\.comments\[0\]\.text: is required$/],
    ];
    for (const [data, message] of refusals) await expect(b.services.imports.run(data)).rejects.toThrow(message);
    expect(await b.services.exports.text()).toBe(before);
  });

  it('the command imports them and names them, and refuses a bad record in one line', () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const file = writeImportFile({ ...DIVISION, tasks: TASKS, feedback: FEEDBACK });
    const ok = runCli(['import', file], env);
    expect(ok.stderr).toMatch(/, 4 tasks, 2 feedback from /);
    expect(ok.code).toBe(0);
    const bad = runCli(['import', writeImportFile({ tasks: [{ ...TASKS[1], id: 70, subject_user_id: 2000009 }] })], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^sector: .*: tasks\[0\]\.subject_user_id: unknown user 2000009; nothing was imported\n$/);
  });
});
