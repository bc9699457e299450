// Files on the training pages (contract §20) over HTTP on both databases: the staff training page
// lists each record's files and offers the upload and remove forms only to who may use them; an
// upload's CSRF token travels in its form's URL and is checked before the body is read; the
// student downloads only the visible files of what was shown them; every download is an
// attachment with nosniff.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, BO, buildEndorsement, buildRole, buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';
import { ADMIN, assignAdasMentor, buildStaffDivision, MENTOR, MOD, STAFF_USERS } from '../../support/staff-division.js';
import { fileForm, PNG } from '../../support/attachments.js';

const NOW = Date.UTC(2026, 5, 1, 12);
const SWEDE = 1000020;

describe('attachments on the training pages', () => {
  let ctx: TestContext;
  let edit: string;
  const session: Record<string, SignedIn> = {};
  let ada: number;
  let bo: number;
  let published: number;
  let draft: number;
  let exam: number;
  let boReport: number;

  const get = (url: string, who: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie: session[who]!.cookie } });
  const page = async (who: string, training = ada) => (await get(`/staff/trainings/${training}`, who)).body;
  /** The upload form's action for a record, as the viewer's page gives it. */
  const actionOf = (body: string, kind: 'reports' | 'examinations', id: number) => {
    const m = new RegExp(`action="(/staff/trainings/\\d+/${kind}/${id}/attachments\\?_csrf=[^"#]+)#`).exec(body);
    return m ? m[1]!.replace(/&amp;/g, '&') : null;
  };
  const uploadAs = async (who: string, kind: 'reports' | 'examinations', id: number, name: string, bytes: Buffer, more = {}) => {
    const action = actionOf(await page(who), kind, id);
    if (action === null) throw new Error(`no upload form for ${kind} ${id}`);
    const form = fileForm(name, bytes, more);
    return ctx.app.inject({
      method: 'POST',
      url: action,
      headers: { cookie: session[who]!.cookie, 'content-type': form.contentType },
      payload: form.body,
    });
  };
  const api = (method: 'POST', url: string, payload: object) => ctx.request({ method, url, token: edit, payload });
  const count = async () =>
    Number(
      (
        await ctx.services.db.kysely
          .selectFrom('training_attachments')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const lastId = async () =>
    (await ctx.services.db.kysely.selectFrom('training_attachments').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: SIGN_IN_ENV });
    await ctx.load(
      buildStaffDivision({
        users: [buildUser({ id: SWEDE, first_name: 'Sven', last_name: 'Svensson', rating: 'C1' })],
        roles: [buildRole({ user_id: SWEDE, area: 'Sweden', role: 'Moderator' })],
        endorsements: [buildEndorsement({ user_id: MOD, type: 'examiner', rating: 'C1', areas: ['Denmark'] })],
      }),
    );
    await assignAdasMentor(ctx.services.db.kysely);
    edit = await ctx.key('edit');
    const trainings = await ctx.services.db.kysely.selectFrom('trainings').select(['id', 'user_id']).execute();
    ada = trainings.find((t) => t.user_id === ADA)!.id;
    bo = trainings.find((t) => t.user_id === BO)!.id;
    const report = async (training: number, isDraft: boolean) =>
      (await api('POST', `/api/trainings/${training}/reports`, { report_date: '2026-05-30', content: 'Session', draft: isDraft })).json()
        .id as number;
    published = await report(ada, false);
    draft = await report(ada, true);
    boReport = await report(bo, false);
    exam = (
      await api('POST', `/api/trainings/${ada}/examinations`, {
        examination_date: '2026-05-31',
        position: 'EKCH_TWR',
        examiner_id: MOD,
        result: 'PASSED',
      })
    ).json().id;
    const people = [...STAFF_USERS, buildUser({ id: SWEDE, first_name: 'Sven', last_name: 'Svensson', rating: 'C1' })];
    for (const [who, cid] of Object.entries({ admin: ADMIN, mod: MOD, mentor: MENTOR, swede: SWEDE, ada: ADA, bo: BO }))
      session[who] = await signIn(
        ctx.app,
        ctx.services,
        people.find((u) => u.id === cid)!,
      );
  });
  afterAll(() => ctx.close());

  it('lets the mentor upload to their trainee’s report through the page, and lists the file with its link', async () => {
    const res = await uploadAs('mentor', 'reports', published, 'scan.pdf', PNG);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/staff/trainings/${ada}?done=attached`);
    const id = await lastId();
    const body = (await get(`/staff/trainings/${ada}?done=attached`, 'mentor')).body;
    expect(body).toContain('File added.');
    expect(body).toMatch(
      new RegExp(
        `<a href="/staff/attachments/${id}" download>scan.pdf.png</a> <span class="hint">\\(PNG image, ${PNG.length} bytes\\)</span>`,
      ),
    );
    // The uploader may remove it.
    expect(body).toContain(`action="/staff/attachments/${id}/remove"`);
    const got = await get(`/staff/attachments/${id}`, 'mentor');
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['content-disposition']).toBe('attachment; filename="scan.pdf.png"');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(PNG)).toBe(true);
    // The timeline names the file.
    expect(body).toMatch(/File scan\.pdf\.png added to a report by /);
  });

  it('refuses a forged upload (no token in the URL, a wrong one, one only in the body) without writing anything', async () => {
    const before = await count();
    const url = `/staff/trainings/${ada}/reports/${published}/attachments`;
    const token = csrfOf(await page('mentor'));
    const send = (u: string, form: { body: Buffer; contentType: string }) =>
      ctx.app.inject({
        method: 'POST',
        url: u,
        headers: { cookie: session.mentor!.cookie, 'content-type': form.contentType },
        payload: form.body,
      });
    for (const [u, form] of [
      [url, fileForm('a.txt', Buffer.from('a'))],
      [`${url}?_csrf=forged`, fileForm('a.txt', Buffer.from('a'))],
      [url, fileForm('a.txt', Buffer.from('a'), { _csrf: token })],
    ] as const) {
      const res = await send(u, form);
      expect(res.statusCode).toBe(403);
      expect(res.body).toContain('Form refused');
    }
    expect(await count()).toBe(before);
  });

  it('checks the token before reading the body: a forged upload is answered while its body is still being sent', async () => {
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(address) as unknown as AddressInfo & URL;
    const status = await new Promise<number>((resolve, reject) => {
      const req = http.request({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/staff/trainings/${ada}/reports/${published}/attachments?_csrf=forged`,
        headers: {
          cookie: session.mentor!.cookie,
          'content-type': 'multipart/form-data; boundary=xyz',
          'content-length': String(8 * 1024 * 1024),
        },
      });
      req.on('response', (res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on('error', (err) => (err.message.includes('socket hang up') ? undefined : reject(err)));
      // A part of the body only: the rest never comes.
      req.write(`--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\n${'a'.repeat(1024)}`);
    });
    expect(status).toBe(403);
  });

  it('shows the file errors beside the upload field: a refused type (415), more than five (409), too large (413)', async () => {
    const nul = await uploadAs('mentor', 'reports', published, 'notes.txt', Buffer.from('a\u0000b'));
    expect(nul.statusCode).toBe(415);
    expect(nul.body).toMatch(new RegExp(`id="file-report-${published}-file-error">Only PDF, PNG and JPEG files and plain text`));
    const big = await uploadAs('mentor', 'reports', published, 'big.txt', Buffer.alloc(10 * 1024 * 1024 + 10, 0x61));
    expect(big.statusCode).toBe(413);
    expect(big.body).toContain('A file can be at most 10 MB.');
    for (let i = 0; i < 4; i++)
      expect((await uploadAs('mentor', 'reports', published, `n${i}.txt`, Buffer.from('note'))).statusCode).toBe(303);
    // Five: the form is no longer offered, and a sixth sent anyway is refused beside the form.
    const full = await page('mentor');
    expect(actionOf(full, 'reports', published)).toBeNull();
    expect(full).toContain('5 files: remove one to add another.');
    const token = csrfOf(full);
    const form = fileForm('six.txt', Buffer.from('six'));
    const sixth = await ctx.app.inject({
      method: 'POST',
      url: `/staff/trainings/${ada}/reports/${published}/attachments?_csrf=${encodeURIComponent(token)}`,
      headers: { cookie: session.mentor!.cookie, 'content-type': form.contentType },
      payload: form.body,
    });
    expect(sixth.statusCode).toBe(409);
    expect(sixth.body).toContain('A report carries at most 5 files; remove one first.');
  });

  it('offers the examination’s form to its examiner and the area’s managers, not to the mentor', async () => {
    expect(actionOf(await page('mentor'), 'examinations', exam)).toBeNull();
    const token = csrfOf(await page('mentor'));
    const form = fileForm('exam.txt', Buffer.from('form'));
    const refused = await ctx.app.inject({
      method: 'POST',
      url: `/staff/trainings/${ada}/examinations/${exam}/attachments?_csrf=${encodeURIComponent(token)}`,
      headers: { cookie: session.mentor!.cookie, 'content-type': form.contentType },
      payload: form.body,
    });
    expect(refused.statusCode).toBe(403);
    const res = await uploadAs('mod', 'examinations', exam, 'exam form.txt', Buffer.from('Passed, well done'), { hidden: 'on' });
    expect(res.statusCode).toBe(303);
    const body = await page('mentor');
    expect(body).toContain('exam form.txt</a>');
    expect(body).toContain('<span class="flag">Staff only</span>');
  });

  it('lets the uploader or a Moderator remove a file, not another mentor’s hand', async () => {
    const modsFile = await lastId();
    // The Moderator's hidden exam form: the mentor sees no button and is refused.
    expect(await page('mentor')).not.toContain(`action="/staff/attachments/${modsFile}/remove"`);
    const token = csrfOf(await page('mentor'));
    const refused = await postForm(ctx.app, `/staff/attachments/${modsFile}/remove`, { _csrf: token }, session.mentor!.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('A file is removed by whoever uploaded it');
    // The Moderator removes one of the mentor's files.
    const mentors = await ctx.services.db.kysely
      .selectFrom('training_attachments')
      .select('id')
      .where('uploader_id', '=', MENTOR)
      .orderBy('id')
      .execute();
    expect(await page('mod')).toContain(`action="/staff/attachments/${mentors[1]!.id}/remove"`);
    const removed = await postForm(
      ctx.app,
      `/staff/attachments/${mentors[1]!.id}/remove`,
      { _csrf: csrfOf(await page('mod')) },
      session.mod!.cookie,
    );
    expect(removed.statusCode).toBe(303);
    expect(removed.headers.location).toBe(`/staff/trainings/${ada}?done=removed`);
    expect((await get(`/staff/attachments/${mentors[1]!.id}`, 'mod')).statusCode).toBe(404);
    expect(await page('mod')).toMatch(/File n0\.txt removed from a report by Mona Madsen/);
  });

  it('serves /staff/attachments only to staff who see the training', async () => {
    const id = await lastId();
    expect((await get(`/staff/attachments/${id}`, 'admin')).statusCode).toBe(200);
    expect((await get(`/staff/attachments/${id}`, 'swede')).statusCode).toBe(404);
    expect((await get(`/staff/attachments/${id}`, 'ada')).statusCode).toBe(403);
    expect((await get('/staff/attachments/abc', 'mod')).statusCode).toBe(404);
  });

  it('gives the student the visible files of their published reports and graded examinations, and nothing else', async () => {
    const add = async (url: string, name: string, more: Record<string, string> = {}) => {
      const form = fileForm(name, Buffer.from(name), more);
      const res = await ctx.request({
        method: 'POST',
        url,
        token: edit,
        headers: { 'content-type': form.contentType },
        payload: form.body,
      });
      return res.json().id as number;
    };
    const visible = await add(`/api/trainings/${ada}/reports/${published}/attachments`, 'visible.txt');
    const hidden = await add(`/api/trainings/${ada}/reports/${draft}/attachments`, 'staff.txt', { hidden: 'true' });
    const onDraft = await add(`/api/trainings/${ada}/reports/${draft}/attachments`, 'draft.txt');
    const onExam = await add(`/api/trainings/${ada}/examinations/${exam}/attachments`, 'result.txt');
    const bos = await add(`/api/trainings/${bo}/reports/${boReport}/attachments`, 'bo.txt');
    const hiddenOnPublished = (
      await ctx.services.db.kysely
        .selectFrom('training_attachments')
        .select('id')
        .where('hidden', '=', 1)
        .where('examination_id', '=', exam)
        .executeTakeFirstOrThrow()
    ).id;

    const mine = (await get('/my/training', 'ada')).body;
    expect(mine).toContain(`<a href="/my/attachments/${visible}" download>visible.txt</a>`);
    expect(mine).toContain(`<a href="/my/attachments/${onExam}" download>result.txt</a>`);
    for (const text of ['staff.txt', 'draft.txt', 'exam form.txt', 'bo.txt', 'Staff only']) expect(mine).not.toContain(text);

    const got = await get(`/my/attachments/${visible}`, 'ada');
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(got.headers['content-disposition']).toBe('attachment; filename="visible.txt"');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.body).toBe('visible.txt');
    expect((await get(`/my/attachments/${onExam}`, 'ada')).statusCode).toBe(200);
    for (const id of [hidden, onDraft, hiddenOnPublished, bos, 999999])
      expect((await get(`/my/attachments/${id}`, 'ada')).statusCode, String(id)).toBe(404);
    expect((await get(`/my/attachments/${bos}`, 'bo')).statusCode).toBe(200);
    const signedOut = await ctx.app.inject({ method: 'GET', url: `/my/attachments/${visible}` });
    expect(signedOut.statusCode).toBe(303);
  });
});
