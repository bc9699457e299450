// Examinations planned, then graded, through the API (contract §20) on both databases: planned with
// one or two examiners and a start, eligible by an examiner endorsement of the area at or above the
// position's rating (422 naming who is not, by name, when planning and when grading), examiner_id
// and examiners both answered and taken, moved and regraded with mails to the student and the
// examiners, corrected, cancelled (204; a graded one 409), each with its event state and timeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, buildDivision, buildEndorsement, buildPosition, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 5, 1, 12);
const EX = 1000005;
const EY = 1000006;
const LOW = 1000007;
const SW = 1000008;

describe('examinations planned, then graded, through the API', () => {
  let ctx: TestContext;
  let edit: string;
  let read: string;
  let training: number;
  const url = (x?: number) => `/api/trainings/${training}/examinations${x === undefined ? '' : `/${x}`}`;
  const plan = (payload: object) => ctx.request({ method: 'POST', url: url(), token: edit, payload });
  const patch = (x: number, payload: object) => ctx.request({ method: 'PATCH', url: url(x), token: edit, payload });
  const db = () => ctx.services.db.kysely;
  const mails = async () => db().selectFrom('mail_outbox').select(['id', 'to_address', 'subject', 'text_body']).orderBy('id').execute();
  const mailsAfter = async (id: number) => (await mails()).filter((m) => m.id > id);
  const lastMail = async () => (await mails()).at(-1)?.id ?? 0;
  const events = async () =>
    (await db().selectFrom('events').select(['type', 'body']).where('type', '=', 'training.examination').orderBy('seq').execute()).map(
      (e) => JSON.parse(e.body).data as { state: string; training_id: number; examination: { id: number; result: string | null } },
    );
  const timeline = async () =>
    (await ctx.request({ method: 'GET', url: `/api/trainings/${training}`, token: read })).json().timeline as Array<{
      action: string;
      detail: Record<string, unknown>;
    }>;

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: { SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'Sector <s@example.org>' } });
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: [
          buildUser({ rating: 'S2', email: 'ada@example.org' }),
          buildUser({ id: EX, first_name: 'Erik', last_name: 'Examiner', rating: 'C3', email: 'erik@example.org' }),
          buildUser({ id: EY, first_name: 'Eva', last_name: 'Ek', rating: 'C1', email: 'eva@example.org' }),
          buildUser({ id: LOW, first_name: 'Lars', last_name: 'Low', rating: 'S3', email: 'lars@example.org' }),
          buildUser({ id: SW, first_name: 'Sven', last_name: 'Swede', rating: 'C1', email: 'sven@example.org' }),
        ],
        positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP'), buildPosition('ESSA_TWR')],
        endorsements: [
          buildEndorsement({ user_id: EX, type: 'examiner', rating: 'C1', areas: ['Denmark'] }),
          buildEndorsement({ user_id: EY, type: 'examiner', rating: 'S3', areas: ['Denmark', 'Sweden'] }),
          buildEndorsement({ user_id: LOW, type: 'examiner', rating: 'S2', areas: ['Denmark'] }),
          buildEndorsement({ user_id: SW, type: 'examiner', rating: 'C1', areas: ['Sweden'] }),
        ],
      }),
    );
    edit = await ctx.key('edit');
    read = await ctx.key('read');
    const made = await ctx.request({
      method: 'POST',
      url: '/api/trainings',
      token: edit,
      payload: { user_id: ADA, area: 'Denmark', ratings: ['S3'], status: 2 },
    });
    training = made.json().id;
  });
  afterAll(() => ctx.close());

  it('plans an examination with two examiners and a start: both examiner_id and examiners, an event, mails to all three by name', async () => {
    const before = await lastMail();
    const res = await plan({ examination_date: '2026-06-20', start: '18:00', position: 'ekch_app', examiners: [EX, EY] });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      id: expect.any(Number),
      training_id: training,
      examination_date: '2026-06-20',
      start: '18:00',
      position: 'EKCH_APP',
      examiner_id: EX,
      examiners: [EX, EY],
      result: null,
      created_at: '2026-06-01T12:00:00.000000Z',
      updated_at: '2026-06-01T12:00:00.000000Z',
    });
    const x = res.json().id as number;
    expect((await events()).at(-1)).toMatchObject({ state: 'planned', training_id: training, examination: { id: x, result: null } });
    const sent = await mailsAfter(before);
    expect(sent.map((m) => m.to_address).sort()).toEqual(['ada@example.org', 'erik@example.org', 'eva@example.org']);
    const to = (a: string) => sent.find((m) => m.to_address === a)!.text_body;
    expect(to('ada@example.org')).toContain(
      'An examination is planned on 2026-06-20 at 18:00 UTC at EKCH_APP, with Erik Examiner (1000005) and Eva Ek (1000006) as examiners.',
    );
    expect(to('erik@example.org')).toContain(
      'You examine the Denmark examination of Ada Lind (1000001) for S3 on 2026-06-20 at 18:00 UTC at EKCH_APP, with Eva Ek (1000006).',
    );
    expect(to('eva@example.org')).toContain('with Erik Examiner (1000005).');
    expect((await timeline()).at(-1)).toMatchObject({
      action: 'examination_planned',
      detail: { id: x, examiners: [EX, EY], examiner_names: ['Erik Examiner (1000005)', 'Eva Ek (1000006)'] },
    });
    const detail = (await ctx.request({ method: 'GET', url: `/api/trainings/${training}`, token: read })).json();
    expect(detail.examinations).toEqual([expect.objectContaining({ id: x, examiner_id: EX, examiners: [EX, EY], result: null })]);
    await ctx.request({ method: 'DELETE', url: url(x), token: edit });
  });

  it('refuses examiners who may not examine at the position, naming each by name, and writes nothing', async () => {
    const [exams, mailCount, eventCount] = [
      await db().selectFrom('training_examinations').selectAll().execute(),
      await lastMail(),
      (await events()).length,
    ];
    const res = await plan({ examination_date: '2026-06-20', position: 'EKCH_APP', examiners: [LOW, SW] });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({
      examiners: [
        'Lars Low (1000007) examines up to S2 in Denmark; EKCH_APP needs S3 or above.',
        'Sven Swede (1000008) holds no active examiner endorsement for Denmark.',
      ],
    });
    // §18's examiner_id alone is checked the same way, under its own name.
    const alone = await plan({ examination_date: '2026-06-20', position: 'EKCH_APP', examiner_id: SW, result: 'PASSED' });
    expect(alone.json().errors).toEqual({ examiner_id: ['Sven Swede (1000008) holds no active examiner endorsement for Denmark.'] });
    for (const [payload, field] of [
      [{ examiners: [EX, EY], examiner_id: EY }, 'examiner_id'],
      [{ examiners: [EX, EY, LOW] }, 'examiners'],
      [{ examiners: [EX, EX] }, 'examiners'],
      [{ examiners: [] }, 'examiners'],
      [{}, 'examiners'],
      [{ examiners: [EX], start: '25:00' }, 'start'],
      [{ examiners: [EX], result: 'GREAT' }, 'result'],
    ] as const) {
      const bad = await plan({ examination_date: '2026-06-20', position: 'EKCH_APP', ...payload });
      expect(bad.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(bad.json().errors), JSON.stringify(payload)).toContain(field);
    }
    expect(await db().selectFrom('training_examinations').selectAll().execute()).toEqual(exams);
    expect(await lastMail()).toBe(mailCount);
    expect(await events()).toHaveLength(eventCount);
  });

  it('takes examiner_id alone (§18) or equal to the first of examiners, and records a graded one at once', async () => {
    const same = await plan({ examination_date: '2026-06-21', position: 'EKCH_TWR', examiners: [EY, LOW], examiner_id: EY });
    expect(same.statusCode, same.body).toBe(201);
    expect(same.json()).toMatchObject({ examiner_id: EY, examiners: [EY, LOW] });
    const before = await lastMail();
    const graded = await plan({ examination_date: '2026-05-30', position: 'EKCH_TWR', examiner_id: LOW, result: 'FAILED' });
    expect(graded.statusCode).toBe(201);
    expect(graded.json()).toMatchObject({ examiner_id: LOW, examiners: [LOW], result: 'FAILED', start: null });
    // Grading keeps §18's result mail to the student, and only to them.
    expect(
      (await mailsAfter(before)).map((m) => [m.to_address, m.text_body.includes('Examination on 2026-05-30 at EKCH_TWR: FAILED.')]),
    ).toEqual([['ada@example.org', true]]);
    expect((await events()).at(-1)).toMatchObject({ state: 'graded', examination: { result: 'FAILED' } });
    await ctx.request({ method: 'DELETE', url: url(same.json().id), token: edit });
  });

  it('moves a planned examination and changes its examiners, telling the student, the examiners and the one removed', async () => {
    const x = (await plan({ examination_date: '2026-06-22', start: '10:00', position: 'EKCH_TWR', examiners: [EX, EY] })).json()
      .id as number;
    const refused = await patch(x, { position: 'EKCH_APP', examiners: [EX, LOW] });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.examiners).toEqual(['Lars Low (1000007) examines up to S2 in Denmark; EKCH_APP needs S3 or above.']);
    const before = await lastMail();
    const moved = await patch(x, { examination_date: '2026-06-23', start: '19:30', position: 'EKCH_APP', examiners: [EY] });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      examination_date: '2026-06-23',
      start: '19:30',
      position: 'EKCH_APP',
      examiner_id: EY,
      examiners: [EY],
    });
    const sent = await mailsAfter(before);
    const to = (a: string) => sent.find((m) => m.to_address === a)?.text_body ?? '';
    expect(to('ada@example.org')).toContain(
      'Your examination is now on 2026-06-23 at 19:30 UTC at EKCH_APP, with Eva Ek (1000006) as examiner.',
    );
    expect(to('eva@example.org')).toContain(
      'You examine the Denmark examination of Ada Lind (1000001) for S3 now on 2026-06-23 at 19:30 UTC at EKCH_APP, as its only examiner.',
    );
    expect(to('erik@example.org')).toContain('You no longer examine the Denmark examination of Ada Lind (1000001)');
    expect((await events()).at(-1)).toMatchObject({ state: 'planned', examination: { id: x, examiners: [EY] } });
    const entry = (await timeline()).at(-1)!;
    expect(entry).toMatchObject({
      action: 'examination_changed',
      detail: { date: '2026-06-23', from: { date: '2026-06-22', examiners: [EX, EY] } },
    });
    const rows = await db().selectFrom('training_examiners').select(['ordinal', 'user_id']).where('examination_id', '=', x).execute();
    expect(rows).toEqual([{ ordinal: 1, user_id: EY }]);
    await ctx.request({ method: 'DELETE', url: url(x), token: edit });
  });

  it('grades a planned examination only while its examiners qualify, mails the student the result, and corrects it', async () => {
    const x = (await plan({ examination_date: '2026-06-24', position: 'EKCH_TWR', examiners: [LOW] })).json().id as number;
    // Lars's examiner endorsement is revoked after planning: grading checks again.
    const [held] = (await ctx.request({ method: 'GET', url: `/api/endorsements?user_id=${LOW}&type=examiner`, token: read })).json().data;
    expect((await ctx.request({ method: 'DELETE', url: `/api/endorsements/${held.id}`, token: edit })).statusCode).toBe(200);
    const refused = await patch(x, { result: 'PASSED' });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.examiners).toEqual(['Lars Low (1000007) holds no active examiner endorsement for Denmark.']);
    expect((await patch(x, { result: 'PASSED', examiners: [EX] })).json()).toMatchObject({ result: 'PASSED', examiners: [EX] });
    expect((await events()).at(-1)).toMatchObject({ state: 'graded', examination: { id: x, result: 'PASSED' } });
    const before = await lastMail();
    const corrected = await patch(x, { result: 'INCOMPLETE' });
    expect(corrected.json()).toMatchObject({ result: 'INCOMPLETE' });
    expect((await mailsAfter(before)).map((m) => m.to_address)).toEqual(['ada@example.org']);
    expect((await timeline()).at(-1)).toMatchObject({
      action: 'examination_corrected',
      detail: { result: 'INCOMPLETE', result_from: 'PASSED' },
    });
    const audit = await db()
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('target', '=', `training:${training}`)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.action).toBe('training.examination');
    expect(JSON.parse(audit.after!)).toMatchObject({ examination: x, result: 'INCOMPLETE' });
    // A graded examination is not cancelled.
    const del = await ctx.request({ method: 'DELETE', url: url(x), token: edit });
    expect(del.statusCode).toBe(409);
    expect(del.json().message).toContain('graded');
  });

  it('cancels a planned examination: 204, gone from the lists, kept in the timeline, told to all', async () => {
    const x = (await plan({ examination_date: '2026-06-25', start: '08:00', position: 'EKCH_TWR', examiners: [EY, EX] })).json()
      .id as number;
    const before = await lastMail();
    const res = await ctx.request({ method: 'DELETE', url: url(x), token: edit });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect(await db().selectFrom('training_examinations').select('id').where('id', '=', x).execute()).toEqual([]);
    expect(await db().selectFrom('training_examiners').select('user_id').where('examination_id', '=', x).execute()).toEqual([]);
    expect((await events()).at(-1)).toMatchObject({ state: 'cancelled', examination: { id: x, examiners: [EY, EX] } });
    const sent = await mailsAfter(before);
    expect(sent.map((m) => m.to_address).sort()).toEqual(['ada@example.org', 'erik@example.org', 'eva@example.org']);
    expect(sent.find((m) => m.to_address === 'ada@example.org')!.text_body).toContain(
      'Your examination on 2026-06-25 at 08:00 UTC at EKCH_TWR is cancelled.',
    );
    expect((await timeline()).at(-1)).toMatchObject({ action: 'examination_cancelled', detail: { id: x, date: '2026-06-25' } });
    expect((await ctx.request({ method: 'DELETE', url: url(x), token: edit })).statusCode).toBe(404);
    expect((await ctx.request({ method: 'PATCH', url: url(x), token: edit, payload: { result: 'PASSED' } })).statusCode).toBe(404);
    expect((await ctx.request({ method: 'DELETE', url: url(x), token: read })).statusCode).toBe(403);
  });
});
