// One-time links for grading one examination (contract §20) over HTTP on both databases: made by a
// Moderator of the area for a planned examination only (a graded one: 409); opened by one of that
// examination's examiners, who needs no staff role, and sees the summary, the published reports and
// the examination; grading keeps the eligibility rule and uses the link up (a refused form does
// not); audited and in the timeline; used, graded meanwhile or cancelled: 410.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, buildDivision, buildEndorsement, buildPosition, buildRole, buildTraining, buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';
import { fileForm, PDF } from '../../support/attachments.js';

const NOW = Date.UTC(2026, 5, 1, 12);
const MOD = 1000010;
const MEN = 1000011;
const EXA = 1000012;
const EXC = 1000013;
const NOROLE = 1000014;
const people = {
  mod: buildUser({ id: MOD, first_name: 'Maja', last_name: 'Mod', rating: 'C1' }),
  men: buildUser({ id: MEN, first_name: 'Mats', last_name: 'Mentor', rating: 'C1' }),
  exa: buildUser({ id: EXA, first_name: 'Erik', last_name: 'Examiner', rating: 'C3' }),
  exc: buildUser({ id: EXC, first_name: 'Cleo', last_name: 'Checker', rating: 'C1' }),
  norole: buildUser({ id: NOROLE, first_name: 'Nils', last_name: 'Nobody', rating: 'S2' }),
  ada: buildUser({ rating: 'S2', email: 'ada@example.org' }),
};
const CLI = { kind: 'cli' } as const;

describe('one-time links for grading an examination', () => {
  let ctx: TestContext;
  let id = 0;
  let page = '';
  const x: Record<'pair' | 'solo' | 'graded' | 'cancelled' | 'files', number> = { pair: 0, solo: 0, graded: 0, cancelled: 0, files: 0 };
  const session: Record<string, SignedIn> = {};
  const get = (url: string, who: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie: session[who]!.cookie } });
  const post = async (url: string, fields: Record<string, string>, who: string, from = url) =>
    postForm(ctx.app, url, { _csrf: csrfOf((await get(from, who)).body), ...fields }, session[who]!.cookie);
  const makeLink = (examination: number | string, who = 'mod') =>
    post(`${page}/links`, { kind: 'examination', examination_id: String(examination) }, who, page);
  const pathOf = (body: string) => new URL(/id="link-url" class="feed-url" readonly value="([^"]+)"/.exec(body)![1]!).pathname;
  const db = () => ctx.services.db.kysely;
  const result = async (xid: number) =>
    (await db().selectFrom('training_examinations').select('result').where('id', '=', xid).executeTakeFirst())?.result;

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: SIGN_IN_ENV });
    await ctx.load(
      buildDivision({
        areas: ['Denmark'],
        users: Object.values(people),
        positions: [buildPosition('EKCH_TWR')],
        roles: [
          buildRole({ user_id: MOD, area: 'Denmark', role: 'Moderator' }),
          buildRole({ user_id: MEN, area: 'Denmark', role: 'Mentor' }),
        ],
        // The two examiners hold no staff role: the link is their only way to grade.
        endorsements: [
          buildEndorsement({ user_id: EXA, type: 'examiner', rating: 'C1', areas: ['Denmark'] }),
          buildEndorsement({ user_id: EXC, type: 'examiner', rating: 'C1', areas: ['Denmark'] }),
        ],
        trainings: [buildTraining({ user_id: ADA, area: 'Denmark', status: 2, ratings: ['S2'], mentors: [MEN] })],
      }),
    );
    for (const [who, u] of Object.entries(people)) session[who] = await signIn(ctx.app, ctx.services, u);
    id = ((await ctx.services.trainings.list({ user_id: ADA })) as Array<{ id: number }>)[0]!.id;
    page = `/staff/trainings/${id}`;
    const plan = (examiners: number[], date: string, result?: string) =>
      ctx.services.trainingExaminations.add(id, { examination_date: date, start: '18:00', position: 'EKCH_TWR', examiners, result }, CLI);
    x.pair = (await plan([EXA, EXC], '2026-06-20')).id;
    x.solo = (await plan([EXA], '2026-06-21')).id;
    x.cancelled = (await plan([EXA], '2026-06-22')).id;
    x.graded = (await plan([EXA], '2026-05-20', 'FAILED')).id;
    x.files = (await plan([EXA], '2026-06-23')).id;
    await ctx.services.trainingRecords.addReport(id, { report_date: '2026-05-25', content: 'Published words', draft: false }, CLI);
    await ctx.services.trainingRecords.addReport(id, { report_date: '2026-05-26', content: 'Draft words', draft: true }, CLI);
  });
  afterAll(() => ctx.close());

  it('is made by a Moderator for a planned examination only, offered beside it', async () => {
    const modPage = (await get(page, 'mod')).body;
    expect(modPage).toContain(`name="examination_id" value="${x.pair}"`);
    expect(modPage).not.toContain(`name="examination_id" value="${x.graded}"`);
    expect((await get(page, 'men')).body).not.toContain('Make a grading link');

    const byMentor = await makeLink(x.pair, 'men');
    expect(byMentor.statusCode).toBe(403);
    const graded = await makeLink(x.graded);
    expect(graded.statusCode).toBe(409);
    expect(graded.body).toContain(`id="exam-${x.graded}-link-problem"`);
    expect(graded.body).toContain('The examination of 2026-05-20 is graded already (FAILED); only a planned one gets a link.');
    expect((await makeLink('')).statusCode).toBe(422);
    expect((await makeLink(999)).statusCode).toBe(404);
    expect(await db().selectFrom('training_links').selectAll().execute()).toEqual([]);

    const made = await makeLink(x.pair);
    expect(made.statusCode).toBe(201);
    expect(made.body).toContain('who is an examiner of it');
    expect(pathOf(made.body)).toMatch(/^\/training\/link\/slk_/);
    const [stored] = await db().selectFrom('training_links').selectAll().execute();
    expect(stored).toMatchObject({ training_id: id, kind: 'examination', examination_id: x.pair, created_by: MOD, used_at: null });
    const detail = await ctx.services.trainings.detail(id);
    expect(detail.timeline.filter((e) => e.action === 'link').map((e) => e.detail)).toEqual([
      { kind: 'examination', link: stored!.id, examination: x.pair },
    ]);
    expect((await get(page, 'mod')).body).toContain('One-time link made for grading an examination by Maja Mod (1000010)');
  });

  it('opens for an examiner of that examination only, without a staff role, with the summary and the published reports', async () => {
    const path = pathOf((await makeLink(x.pair)).body);
    for (const who of ['norole', 'men', 'mod']) {
      const refused = await get(path, who);
      expect(refused.statusCode, who).toBe(403);
      expect(refused.body, who).toContain(
        'This link is for an examiner of this examination: Erik Examiner (1000012) and Cleo Checker (1000013).',
      );
    }
    const open = await get(path, 'exc');
    expect(open.statusCode).toBe(200);
    expect(open.headers['referrer-policy']).toBe('no-referrer');
    expect(open.body).toContain('Examination of Ada');
    expect(open.body).toContain('2026-06-20 at 18:00 UTC');
    expect(open.body).toContain('Published words');
    expect(open.body).not.toContain('Draft words');
    expect(open.body).toContain('<select id="result" name="result"');
    expect(open.body).not.toContain('name="content"');
    // The link is all the examiner may do: the staff pages stay closed to them.
    expect((await get(page, 'exc')).statusCode).toBe(403);
  });

  it('grades once: a refused form leaves the link unused, the eligibility rule holds, the saved result uses it up', async () => {
    const path = pathOf((await makeLink(x.pair)).body);
    const blank = await post(path, { result: '' }, 'exc');
    expect(blank.statusCode).toBe(422);
    expect(blank.body).toContain('id="result-error"');
    // Erik's endorsement lapses: grading is refused naming him, as it is for staff.
    await db()
      .updateTable('endorsements')
      .set({ valid_to: NOW - 1000 })
      .where('user_id', '=', EXA)
      .execute();
    const ineligible = await post(path, { result: 'PASSED' }, 'exc');
    await db().updateTable('endorsements').set({ valid_to: null }).where('user_id', '=', EXA).execute();
    expect(ineligible.statusCode).toBe(422);
    expect(ineligible.body).toContain('Erik Examiner (1000012) holds no active examiner endorsement for Denmark.');
    expect(await result(x.pair)).toBeNull();

    const saved = await post(path, { result: 'PASSED' }, 'exc');
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/training/link/graded');
    expect(await result(x.pair)).toBe('PASSED');
    const [link] = await db().selectFrom('training_links').selectAll().where('used_at', 'is not', null).execute();
    expect(link).toMatchObject({ used_by: EXC, used_at: NOW, examination_id: x.pair });
    const audit = await ctx.services.audit.read({ target: `training:${id}` });
    expect(audit.filter((e) => e.action === 'training.link_used')).toHaveLength(1);
    const events = await db().selectFrom('events').select('body').where('type', '=', 'training.examination').execute();
    expect(events.some((e) => e.body.includes('"state":"graded"') && e.body.includes('PASSED'))).toBe(true);
    const staffPage = (await get(page, 'mod')).body;
    expect(staffPage).toContain('Examination graded through a one-time link by Cleo Checker (1000013)');
    expect(staffPage).toContain('Examination of 2026-06-20 at EKCH_TWR graded: PASSED by Cleo Checker (1000013)');

    for (const again of [await get(path, 'exc'), await post(path, { result: 'FAILED' }, 'exa', '/my')]) {
      expect(again.statusCode).toBe(410);
      expect(again.body).toContain('This link is used up.');
    }
    expect(await result(x.pair)).toBe('PASSED');
  });

  it('takes files for its examination from its examiner before grading, without using the link up', async () => {
    const path = pathOf((await makeLink(x.files)).body);
    /** Sends a file as `who`, the form's CSRF token in the URL as the page's upload form carries it. */
    const upload = async (who: string, filename: string, bytes: Buffer, more: Record<string, string> = {}, token?: string) => {
      const form = fileForm(filename, bytes, more);
      const csrf = token ?? csrfOf((await get('/my', who)).body);
      return ctx.app.inject({
        method: 'POST',
        url: `${path}/files?_csrf=${encodeURIComponent(csrf)}`,
        payload: form.body,
        headers: { 'content-type': form.contentType, cookie: session[who]!.cookie },
      });
    };
    const files = () =>
      db()
        .selectFrom('training_attachments')
        .select(['name', 'hidden', 'uploader_id'])
        .where('examination_id', '=', x.files)
        .orderBy('id')
        .execute();

    const opened = (await get(path, 'exa')).body;
    expect(opened).toContain(`<form method="post" enctype="multipart/form-data" action="${path}/files?_csrf=`);
    expect(opened).toContain('No files yet.');
    // Without the session's token: refused before the file is read. Not its examiner: the link's refusal.
    expect((await upload('exa', 'form.pdf', PDF, {}, 'forged')).statusCode).toBe(403);
    const notExaminer = await upload('exc', 'form.pdf', PDF);
    expect(notExaminer.statusCode).toBe(403);
    expect(notExaminer.body).toContain('This link is for an examiner of this examination: Erik Examiner (1000012).');

    const added = await upload('exa', 'form.pdf', PDF);
    expect(added.statusCode).toBe(303);
    expect(added.headers.location).toBe(`${path}?done=attached`);
    const shown = (await get(added.headers.location!, 'exa')).body;
    expect(shown).toContain('The file is added.');
    expect(shown).toContain('form.pdf');
    const wrong = await upload('exa', 'virus.exe', Buffer.from([0x4d, 0x5a, 0, 1, 2, 3, 0xff, 0xfe]));
    expect(wrong.statusCode).toBe(415);
    expect(wrong.body).toContain('id="file-error"');
    expect((await upload('exa', 'notes.txt', Buffer.from('Staff notes'), { hidden: 'on' })).statusCode).toBe(303);
    expect(await files()).toEqual([
      { name: 'form.pdf', hidden: 0, uploader_id: EXA },
      { name: 'notes.txt', hidden: 1, uploader_id: EXA },
    ]);

    // Still unused: grading uses it up; after that no file comes through it.
    const link = () => db().selectFrom('training_links').select('used_at').where('examination_id', '=', x.files).executeTakeFirstOrThrow();
    expect((await link()).used_at).toBeNull();
    expect((await post(path, { result: 'PASSED' }, 'exa')).statusCode).toBe(303);
    expect((await link()).used_at).toBe(NOW);
    const late = await upload('exa', 'late.pdf', PDF);
    expect(late.statusCode).toBe(410);
    expect((await files()).map((f) => f.name)).toEqual(['form.pdf', 'notes.txt']);
    const timeline = (await ctx.services.trainings.detail(id)).timeline.filter((e) => e.action === 'attachment');
    expect(timeline.map((e) => e.detail)).toEqual([
      { examination: x.files, file: 'form.pdf', hidden: false },
      { examination: x.files, file: 'notes.txt', hidden: true },
    ]);
  });

  it('is gone when staff graded or cancelled the examination meanwhile', async () => {
    const solo = pathOf((await makeLink(x.solo)).body);
    const cancelled = pathOf((await makeLink(x.cancelled)).body);
    expect((await post(`${page}/examinations/${x.solo}/grade`, { result: 'INCOMPLETE' }, 'mod', page)).statusCode).toBe(303);
    expect((await post(`${page}/examinations/${x.cancelled}/cancel`, {}, 'mod', page)).statusCode).toBe(303);
    const graded = await post(solo, { result: 'PASSED' }, 'exa', '/my');
    expect(graded.statusCode).toBe(410);
    expect(graded.body).toContain('This examination is graded already');
    expect(await result(x.solo)).toBe('INCOMPLETE');
    const gone = await get(cancelled, 'exa');
    expect(gone.statusCode).toBe(410);
    expect(gone.body).toContain('This link is not known.');
  });
});
