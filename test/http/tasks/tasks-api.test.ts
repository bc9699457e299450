// Tasks between staff through the API (contract §21) on both databases: who may create (a training's
// mentor, the area's Moderators and Administrators) and who may be asked (Moderator or Administrator
// of the training's area, or a division-wide Administrator; custom without a training: any), each
// refusal 422 naming why; the rules of each type; listing and filters; closing by the assignee or
// the creator only (403 otherwise), once (409), with events, audit and mail by name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, BO, buildRole, buildUser } from '../../support/factories.js';
import { ADMIN, assignAdasMentor, buildStaffDivision, MENTOR, MOD, PLAIN } from '../../support/staff-division.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const SWE = 1000014;

describe('tasks through the API', () => {
  let ctx: TestContext;
  let edit: string;
  let read: string;
  const trainings: Record<number, number> = {};
  const db = () => ctx.services.db.kysely;
  const create = (payload: object) => ctx.request({ method: 'POST', url: '/api/tasks', token: edit, payload });
  const close = (id: number, payload: object) => ctx.request({ method: 'PATCH', url: `/api/tasks/${id}`, token: edit, payload });
  const events = async () =>
    (await db().selectFrom('events').select(['type', 'body']).where('type', 'like', 'task.%').orderBy('seq').execute()).map((e) => ({
      type: e.type,
      task: (JSON.parse(e.body) as { data: { task: { id: number; status: string } } }).data.task,
    }));
  const mails = () => db().selectFrom('mail_outbox').select(['to_address', 'subject', 'text_body']).orderBy('id').execute();
  const upgrade = (over: object = {}) => ({
    type: 'rating_upgrade',
    subject_user_id: ADA,
    training_id: trainings[ADA],
    rating: 'S3',
    assignee_id: MOD,
    creator_id: MENTOR,
    ...over,
  });

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: { SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'Sector <s@example.org>' } });
    const division = buildStaffDivision({
      users: [buildUser({ id: SWE, first_name: 'Sven', last_name: 'Svensson', rating: 'C1' })],
      roles: [buildRole({ user_id: SWE, area: 'Sweden', role: 'Moderator' })],
    });
    division.users = division.users!.map((u) => ({ ...u, email: `${u.id}@example.org` }));
    await ctx.load(division);
    await assignAdasMentor(db());
    for (const t of await db().selectFrom('trainings').select(['id', 'user_id']).execute()) trainings[t.user_id] = t.id;
    edit = await ctx.key('edit');
    read = await ctx.key('read');
  });
  afterAll(() => ctx.close());

  it('lets the mentor and the area’s staff create, and refuses everyone else with 422 naming why', async () => {
    const made = await create({ ...upgrade(), message: '  Passed the CPT.  ' });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.headers.location).toBe(`/api/tasks/${made.json().id}`);
    expect(made.json()).toEqual({
      id: expect.any(Number),
      type: 'rating_upgrade',
      status: 'pending',
      subject_user_id: ADA,
      training_id: trainings[ADA],
      rating: 'S3',
      message: 'Passed the CPT.',
      creator_id: MENTOR,
      assignee_id: MOD,
      created_at: '2026-11-20T12:00:00.000000Z',
      closed_at: null,
      division_api: null,
    });
    // A Moderator of the area (not a mentor of Bo) asks the division-wide Administrator.
    const theory = await create({
      type: 'theory_exam',
      subject_user_id: BO,
      training_id: trainings[BO],
      rating: 'S2',
      assignee_id: ADMIN,
      creator_id: MOD,
    });
    expect(theory.statusCode, theory.body).toBe(201);

    const refusals: Array<[object, string, string]> = [
      [
        upgrade({ creator_id: PLAIN }),
        'creator_id',
        "Per Poulsen (1000013) may not send this task: Tasks about a training are sent by its mentors and by the area's Administrators and Moderators.",
      ],
      [
        upgrade({ subject_user_id: BO, training_id: trainings[BO], creator_id: MENTOR }),
        'creator_id',
        "Mette Mikkelsen (1000012) may not send this task: Tasks about a training are sent by its mentors and by the area's Administrators and Moderators.",
      ],
      [
        upgrade({ assignee_id: MENTOR }),
        'assignee_id',
        'Mette Mikkelsen (1000012) holds neither Moderator nor Administrator in Denmark, so cannot be asked.',
      ],
      [
        upgrade({ assignee_id: SWE }),
        'assignee_id',
        'Sven Svensson (1000014) holds neither Moderator nor Administrator in Denmark, so cannot be asked.',
      ],
      [upgrade({ rating: null }), 'rating', 'Give the rating as a rating code, S1 or higher (S2, S3, C1, …).'],
      [upgrade({ rating: 'X9' }), 'rating', 'Give the rating as a rating code, S1 or higher (S2, S3, C1, …).'],
      [
        upgrade({ type: 'solo_endorsement', rating: null }),
        'theory_exam_passed',
        'Confirm that the student has passed the theoretical exam.',
      ],
      [upgrade({ type: 'custom', rating: null, training_id: null }), 'message', 'A custom task needs a message of 1 to 1000 characters.'],
      [upgrade({ message: 'm'.repeat(1001) }), 'message', 'The message must be at most 1000 characters.'],
      [upgrade({ training_id: null }), 'training_id', 'A task of this type is about a training: give training_id.'],
      [upgrade({ training_id: 999999 }), 'training_id', 'There is no training 999999.'],
      // Beyond a 32-bit id: no training, never a database error.
      [upgrade({ training_id: '9999999999' }), 'training_id', 'There is no training 9999999999.'],
      [upgrade({ subject_user_id: BO }), 'subject_user_id', `Training ${trainings[ADA]} is not this member's: its student is ${ADA}.`],
      [upgrade({ type: 'favour' }), 'type', 'The type must be one of rating_upgrade, solo_endorsement, theory_exam, custom.'],
    ];
    expect((await create(upgrade({ training_id: 3.5e124 }))).statusCode).toBe(422);
    for (const [payload, field, message] of refusals) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(422);
      expect(res.json().errors[field], JSON.stringify(payload)).toEqual([message]);
    }
    // A custom task without a training goes to any Moderator or Administrator; a solo needs the confirmation.
    const custom = await create({
      type: 'custom',
      subject_user_id: BO,
      message: 'Please check Bo’s visiting request.',
      assignee_id: SWE,
      creator_id: MOD,
    });
    expect(custom.statusCode, custom.body).toBe(201);
    expect(custom.json()).toMatchObject({ training_id: null, message: 'Please check Bo’s visiting request.' });
    const solo = await create(upgrade({ type: 'solo_endorsement', rating: null, theory_exam_passed: true }));
    expect(solo.statusCode, solo.body).toBe(201);
    expect(solo.json()).not.toHaveProperty('rating');
    expect((await create(upgrade())).statusCode).toBe(201);
    // Read keys read; a read key cannot write.
    expect((await ctx.request({ method: 'POST', url: '/api/tasks', token: read, payload: upgrade() })).statusCode).toBe(403);

    expect((await events()).map((e) => e.type)).toEqual(Array(5).fill('task.created'));
    const first = (await mails()).filter((m) => m.to_address === `${MOD}@example.org`)[0]!;
    expect(first.subject).toBe('Sector: New task: Rating upgrade');
    expect(first.text_body).toContain('Mette Mikkelsen (1000012) asks you: Rating upgrade to S3 for Ada Lind (1000001) (Denmark).');
    expect(first.text_body).toContain('Message: Passed the CPT.');
    expect(first.text_body).toContain('/staff/tasks');
    const audit = await ctx.services.audit.read({ target: `task:${made.json().id}` });
    expect(audit.map((a: { action: string }) => a.action)).toEqual(['task.created']);
  });

  it('lists with filters and answers one task; an unknown id is 404', async () => {
    const all = (await ctx.request({ method: 'GET', url: '/api/tasks', token: read })).json().data as Array<{
      id: number;
      assignee_id: number;
    }>;
    expect(all).toHaveLength(5);
    expect(all.map((t) => t.id)).toEqual([...all.map((t) => t.id)].sort((a, b) => a - b));
    const mod = (await ctx.request({ method: 'GET', url: `/api/tasks?assignee_id=${MOD}&status=pending`, token: read })).json().data;
    expect(mod).toHaveLength(3);
    const bo = (await ctx.request({ method: 'GET', url: `/api/tasks?training_id=${trainings[BO]}`, token: read })).json().data;
    expect(bo.map((t: { type: string }) => t.type)).toEqual(['theory_exam']);
    expect((await ctx.request({ method: 'GET', url: `/api/tasks/${all[0]!.id}`, token: read })).json()).toMatchObject({ id: all[0]!.id });
    expect((await ctx.request({ method: 'GET', url: '/api/tasks/999999', token: read })).statusCode).toBe(404);
    expect((await ctx.request({ method: 'GET', url: '/api/tasks?status=open', token: read })).statusCode).toBe(422);
    expect((await ctx.request({ method: 'GET', url: '/api/tasks' })).statusCode).toBe(401);
  });

  it('is closed by the assignee (completed, declined) or withdrawn by the creator, once; others 403', async () => {
    const [first, theory, , solo, last] = (await ctx.request({ method: 'GET', url: '/api/tasks', token: read })).json().data as Array<{
      id: number;
    }>;
    const mailsBefore = (await mails()).length;
    expect((await close(first!.id, { status: 'completed', actor_id: MENTOR })).json().message).toBe(
      'Only the task’s assignee completes or declines it.',
    );
    expect((await close(first!.id, { status: 'withdrawn', actor_id: MOD })).statusCode).toBe(403);
    expect((await close(first!.id, { status: 'pending', actor_id: MOD })).statusCode).toBe(422);
    const done = await close(first!.id, { status: 'completed', closed_message: 'Upgraded at the network.', actor_id: MOD });
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toMatchObject({
      status: 'completed',
      closed_at: '2026-11-20T12:00:00.000000Z',
      closed_message: 'Upgraded at the network.',
    });
    const again = await close(first!.id, { status: 'declined', actor_id: MOD });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('The task is already completed.');
    expect((await close(first!.id, { status: 'withdrawn', actor_id: MENTOR })).statusCode).toBe(409);

    const declined = await close(theory!.id, { status: 'declined', actor_id: ADMIN });
    expect(declined.statusCode).toBe(200);
    const withdrawn = await close(solo!.id, { status: 'withdrawn', actor_id: MENTOR });
    expect(withdrawn.json()).toMatchObject({ status: 'withdrawn' });
    expect((await close(last!.id, { status: 'completed', closed_message: 'x'.repeat(1001), actor_id: MOD })).statusCode).toBe(422);

    // Events for completed and declined (none for a withdrawal); mail to the creator by name, none for a withdrawal.
    expect((await events()).slice(5).map((e) => [e.type, e.task.id, e.task.status])).toEqual([
      ['task.completed', first!.id, 'completed'],
      ['task.declined', theory!.id, 'declined'],
    ]);
    const sent = (await mails()).slice(mailsBefore);
    expect(sent.map((m) => [m.to_address, m.subject])).toEqual([
      [`${MENTOR}@example.org`, 'Sector: Task completed: Rating upgrade'],
      [`${MOD}@example.org`, 'Sector: Task declined: Theory exam access'],
    ]);
    expect(sent[0]!.text_body).toContain('Mona Madsen (1000011) completed your task: Rating upgrade to S3 for Ada Lind (1000001).');
    expect(sent[0]!.text_body).toContain('Message: Upgraded at the network.');
    const audit = await ctx.services.audit.read({ target: `task:${solo!.id}` });
    expect(audit.map((a: { action: string }) => a.action).sort()).toEqual(['task.created', 'task.withdrawn']);
  });
});
