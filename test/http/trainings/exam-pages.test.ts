// Examinations on the staff pages (contract §20) over HTTP on both databases: planned through the
// training page with examiners and a position picked by name, graded, moved and cancelled through
// each examination's forms shown only to who may use them; a graded result corrected only by a
// Moderator; GET /staff/exams with the viewer's own first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, buildDivision, buildEndorsement, buildPosition, buildRole, buildTraining, buildUser } from '../../support/factories.js';
import { csrfOf, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';

const NOW = Date.UTC(2026, 5, 1, 12);
const MOD = 1000010;
const MEN = 1000011;
const EXB = 1000012;
const EXA = 1000013;
const SWE = 1000014;
const people = {
  mod: buildUser({ id: MOD, first_name: 'Maja', last_name: 'Mod', rating: 'C1' }),
  men: buildUser({ id: MEN, first_name: 'Mats', last_name: 'Mentor', rating: 'C1' }),
  exb: buildUser({ id: EXB, first_name: 'Bea', last_name: 'Buddy', rating: 'C1' }),
  exa: buildUser({ id: EXA, first_name: 'Erik', last_name: 'Examiner', rating: 'C3' }),
  swe: buildUser({ id: SWE, first_name: 'Sven', last_name: 'Swede', rating: 'C1' }),
  ada: buildUser({ rating: 'S2' }),
};

describe('examinations on the staff pages', () => {
  let ctx: TestContext;
  let url: string;
  const session: Record<string, SignedIn> = {};
  const get = (path: string, who: string) => ctx.app.inject({ method: 'GET', url: path, headers: { cookie: session[who]!.cookie } });
  /** Posts a form as `who`, with the token of `page`; a field given a list is sent once per value (boxes). */
  const post = async (path: string, fields: Record<string, string | string[]>, who: string, page = url) => {
    const body = new URLSearchParams([['_csrf', csrfOf((await get(page, who)).body)]]);
    for (const [k, v] of Object.entries(fields)) for (const one of Array.isArray(v) ? v : [v]) body.append(k, one);
    return ctx.app.inject({
      method: 'POST',
      url: path,
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: session[who]!.cookie },
      payload: body.toString(),
    });
  };
  const exams = () => ctx.services.db.kysely.selectFrom('training_examinations').selectAll().orderBy('id').execute();

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: SIGN_IN_ENV });
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: Object.values(people),
        positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP'), buildPosition('ESSA_TWR')],
        roles: [
          buildRole({ user_id: MOD, area: 'Denmark', role: 'Moderator' }),
          buildRole({ user_id: MEN, area: 'Denmark', role: 'Mentor' }),
          buildRole({ user_id: EXB, area: 'Denmark', role: 'Buddy' }),
          buildRole({ user_id: SWE, area: 'Sweden', role: 'Mentor' }),
        ],
        endorsements: [
          buildEndorsement({ user_id: EXA, type: 'examiner', rating: 'C1', areas: ['Denmark'] }),
          buildEndorsement({ user_id: EXB, type: 'examiner', rating: 'S3', areas: ['Denmark'] }),
          buildEndorsement({ user_id: SWE, type: 'examiner', rating: 'C1', areas: ['Sweden'] }),
        ],
        trainings: [
          buildTraining({ user_id: ADA, area: 'Denmark', status: 2, ratings: ['S3'], mentors: [MEN], created_at: '2026-05-01T10:00:00Z' }),
        ],
      }),
    );
    for (const [who, u] of Object.entries(people)) session[who] = await signIn(ctx.app, ctx.services, u);
    const [t] = (await ctx.services.trainings.list({ user_id: ADA })) as Array<{ id: number }>;
    url = `/staff/trainings/${t!.id}`;
  });
  afterAll(() => ctx.close());

  it("offers a Moderator the area's examiners and positions by name, and plans an examination without a result", async () => {
    const page = (await get(url, 'mod')).body;
    expect(page).toContain('Plan an examination');
    expect(page).toContain(`name="examiners" value="${EXA}"`);
    expect(page).toMatch(/Erik Examiner \(1000013\), examines up to C1/);
    expect(page).toMatch(/Bea Buddy \(1000012\), examines up to S3/);
    // Only holders of an examiner endorsement for Denmark, and only Denmark's positions.
    expect(page).not.toContain(`name="examiners" value="${SWE}"`);
    expect(page).not.toContain(`name="examiners" value="${MOD}"`);
    expect(page).toContain('<option value="EKCH_APP" >EKCH_APP — Copenhagen Approach (S3)</option>');
    expect(page).not.toContain('value="ESSA_TWR"');

    const refused = await post(
      `${url}/examinations`,
      { examination_date: '2026-06-20', start: '18:00', position: 'EKCH_APP', examiners: [String(EXA), String(SWE)], result: '' },
      'mod',
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('id="exam-examiners-error">Sven Swede (1000014) holds no active examiner endorsement for Denmark.');
    // The form comes back with the boxes as sent.
    expect(refused.body).toContain(`name="examiners" value="${EXA}" checked`);
    expect(await exams()).toEqual([]);

    const planned = await post(
      `${url}/examinations`,
      { examination_date: '2026-06-20', start: '18:00', position: 'EKCH_APP', examiners: [String(EXA), String(EXB)], result: '' },
      'mod',
    );
    expect(planned.statusCode).toBe(303);
    expect(planned.headers.location).toBe(`${url}?done=exam`);
    const [x] = await exams();
    expect(x).toMatchObject({ result: null, start: '18:00', examiner_id: EXA });
    const after = (await get(url, 'mod')).body;
    expect(after).toContain(
      '2026-06-20 at 18:00 UTC, EKCH_APP, examiners Erik Examiner (1000013) and Bea Buddy (1000012): <strong>Planned</strong>',
    );
    for (const action of ['/grade', '/move', '/cancel']) expect(after).toContain(`action="${url}/examinations/${x!.id}${action}#`);
    expect(after).toContain(
      'Examination planned on 2026-06-20 at 18:00 UTC at EKCH_APP with Erik Examiner (1000013) and Bea Buddy (1000012) by Maja Mod (1000010)',
    );
  });

  it('shows a mentor who examines nothing no examination form, and refuses their grading', async () => {
    const [x] = await exams();
    const page = (await get(url, 'men')).body;
    expect(page).not.toContain('Plan an examination');
    expect(page).not.toContain(`/examinations/${x!.id}/grade`);
    const res = await post(`${url}/examinations/${x!.id}/grade`, { result: 'PASSED' }, 'men');
    expect(res.statusCode).toBe(403);
    expect((await exams())[0]!.result).toBeNull();
  });

  it('lets an examiner grade their examination (the message beside the field when no result is picked), and only a Moderator correct it', async () => {
    const [x] = await exams();
    const grade = `${url}/examinations/${x!.id}/grade`;
    expect((await get(url, 'exb')).body).toContain(`action="${grade}#`);
    const none = await post(grade, { result: '' }, 'exb');
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain(`id="exam-${x!.id}-grade-result-error">Pick a result: PASSED, FAILED, INCOMPLETE, POSTPONED.`);
    expect((await post(grade, { result: 'FAILED' }, 'exb')).statusCode).toBe(303);
    expect((await exams())[0]).toMatchObject({ result: 'FAILED' });
    // Graded: the examiner is offered no correction, and is refused one.
    expect((await get(url, 'exb')).body).not.toContain(`action="${grade}#`);
    const again = await post(grade, { result: 'PASSED' }, 'exb');
    expect(again.statusCode).toBe(403);
    expect(again.body).toContain('A graded examination is corrected only by the area&#39;s Administrators and Moderators.');
    expect((await get(url, 'mod')).body).toContain('Correct the result');
    expect((await post(grade, { result: 'PASSED' }, 'mod')).statusCode).toBe(303);
    expect((await exams())[0]).toMatchObject({ result: 'PASSED' });
    const audit = await ctx.services.db.kysely
      .selectFrom('audit_log')
      .select(['actor', 'action', 'after'])
      .where('action', '=', 'training.examination')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ actor: `member:${MOD}` });
    expect(JSON.parse(audit.after!)).toMatchObject({ examination: x!.id, state: 'graded', result: 'PASSED' });
    expect((await get(url, 'mod')).body).toContain(
      'Examination of 2026-06-20 at EKCH_APP corrected: FAILED to PASSED by Maja Mod (1000010)',
    );
  });

  it('moves and cancels a planned examination through its forms; the timeline keeps it', async () => {
    expect(
      (
        await post(
          `${url}/examinations`,
          { examination_date: '2026-07-01', start: '', position: 'EKCH_TWR', examiners: String(EXB), result: '' },
          'mod',
        )
      ).statusCode,
    ).toBe(303);
    const x = (await exams()).at(-1)!;
    const moved = await post(
      `${url}/examinations/${x.id}/move`,
      { examination_date: '2026-07-02', start: '09:15', position: 'EKCH_TWR', examiners: [String(EXB), String(EXA)] },
      'exb',
    );
    expect(moved.statusCode).toBe(303);
    expect((await exams()).at(-1)).toMatchObject({ examination_date: '2026-07-02', start: '09:15', examiner_id: EXB });
    const bad = await post(
      `${url}/examinations/${x.id}/move`,
      { examination_date: '2026-07-02', start: '9 am', position: 'EKCH_TWR', examiners: String(EXB) },
      'exb',
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain(`id="exam-${x.id}-move-start-error">The start field must be a time of day, HH:MM (UTC).`);
    expect((await post(`${url}/examinations/${x.id}/cancel`, {}, 'exb')).statusCode).toBe(303);
    expect((await exams()).map((e) => e.id)).not.toContain(x.id);
    const page = (await get(url, 'mod')).body;
    expect(page).toContain(
      'Examination on 2026-07-02 at 09:15 UTC at EKCH_TWR with Bea Buddy (1000012) and Erik Examiner (1000013) cancelled by Bea Buddy (1000012)',
    );
  });

  it('lists upcoming and past examinations on /staff/exams, the viewer’s own first, linked from the staff pages', async () => {
    expect(
      (
        await post(
          `${url}/examinations`,
          { examination_date: '2026-06-10', start: '17:00', position: 'EKCH_TWR', examiners: String(EXA), result: '' },
          'mod',
        )
      ).statusCode,
    ).toBe(303);
    expect(
      (
        await post(
          `${url}/examinations`,
          { examination_date: '2026-06-12', start: '', position: 'EKCH_TWR', examiners: String(EXB), result: '' },
          'mod',
        )
      ).statusCode,
    ).toBe(303);
    expect((await get('/staff', 'exb')).body).toContain('<a href="/staff/exams">Examinations</a>');
    const mine = await get('/staff/exams', 'exb');
    expect(mine.statusCode).toBe(200);
    const upcoming = mine.body.slice(mine.body.indexOf('upcoming-title'), mine.body.indexOf('past-title'));
    // Bea's own (2026-06-12) before the earlier one she does not examine.
    expect(upcoming).toMatch(
      /2026-06-12<\/strong>, EKCH_TWR \(Denmark\)[\s\S]*Bea Buddy \(1000012\) <strong>\(you\)<\/strong>[\s\S]*2026-06-10 at 17:00 UTC<\/strong>/,
    );
    expect(upcoming).toContain(`<a href="${url}">Ada Lind (1000001)</a>`);
    const past = mine.body.slice(mine.body.indexOf('past-title'));
    expect(past).toMatch(/2026-06-20 at 18:00 UTC[\s\S]*Result: PASSED/);
    // The mentor sees their trainee's; a Swedish mentor none of Denmark's; a member without a role is refused.
    expect((await get('/staff/exams', 'men')).body).toContain('2026-06-10 at 17:00 UTC');
    expect((await get('/staff/exams', 'swe')).body).not.toContain('Ada Lind');
    expect((await get('/staff/exams', 'ada')).statusCode).toBe(403);
  });
});
