// Files on training reports and examinations through the API (contract §20), on both databases:
// the type found from the content (never the name), 415 for anything else, 413 above 10 MB, five
// files per record counted under the training's lock (also when uploads race), the download's
// headers, removal, and the timeline and audit entries of each change.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, buildDivision, buildEndorsement, buildPosition, buildUser } from '../../support/factories.js';
import { fileForm, JPEG, multipart, PDF, PNG } from '../../support/attachments.js';

const NOW = Date.UTC(2026, 2, 10, 12);
const EX = 1000005;

describe('attachments through the API', () => {
  let ctx: TestContext;
  let edit: string;
  let read: string;
  let training: number;
  let report: number;
  let exam: number;

  const upload = (url: string, form: { body: Buffer; contentType: string }, token = edit) =>
    ctx.request({ method: 'POST', url, token, headers: { 'content-type': form.contentType }, payload: form.body });
  const toReport = (name: string, bytes: Buffer, more: Record<string, string> = {}, rid = report) =>
    upload(`/api/trainings/${training}/reports/${rid}/attachments`, fileForm(name, bytes, more));
  const detail = async () => (await ctx.request({ method: 'GET', url: `/api/trainings/${training}`, token: read })).json();
  const count = async () =>
    Number(
      (
        await ctx.services.db.kysely
          .selectFrom('training_attachments')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const newReport = async () =>
    (
      await ctx.request({
        method: 'POST',
        url: `/api/trainings/${training}/reports`,
        token: edit,
        payload: { report_date: '2026-03-09', content: 'Session' },
      })
    ).json().id as number;

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(
      buildDivision({
        users: [buildUser({ rating: 'S1' }), buildUser({ id: EX, first_name: 'Ex', rating: 'C3' })],
        positions: [buildPosition('EKCH_TWR')],
        endorsements: [buildEndorsement({ user_id: EX, type: 'examiner', rating: 'S3', areas: ['Denmark'] })],
      }),
    );
    edit = await ctx.key('edit');
    read = await ctx.key('read');
    const t = await ctx.request({
      method: 'POST',
      url: '/api/trainings',
      token: edit,
      payload: { user_id: ADA, area: 'Denmark', ratings: ['S2'] },
    });
    training = t.json().id;
    report = await newReport();
    const x = await ctx.request({
      method: 'POST',
      url: `/api/trainings/${training}/examinations`,
      token: edit,
      payload: { examination_date: '2026-03-09', position: 'EKCH_TWR', examiner_id: EX, result: 'PASSED' },
    });
    exam = x.json().id;
  });
  afterAll(() => ctx.close());

  it('takes the type from the content: a PNG named .pdf is a PNG, and is named so', async () => {
    const res = await toReport('scan.pdf', PNG);
    expect(res.statusCode).toBe(201);
    const a = res.json();
    expect(Object.keys(a)).toEqual(['id', 'name', 'type', 'size', 'hidden', 'created_at']);
    expect(a).toEqual({
      id: expect.any(Number),
      name: 'scan.pdf.png',
      type: 'image/png',
      size: PNG.length,
      hidden: false,
      created_at: '2026-03-10T12:00:00.000000Z',
    });
    expect(res.headers.location).toBe(`/api/attachments/${a.id}`);
    const got = await ctx.request({ method: 'GET', url: `/api/attachments/${a.id}`, token: read });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('image/png');
    expect(got.headers['content-disposition']).toBe('attachment; filename="scan.pdf.png"');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(PNG)).toBe(true);
  });

  it('accepts PDF and JPEG on an examination, hidden when asked, and lists them on the training', async () => {
    const url = `/api/trainings/${training}/examinations/${exam}/attachments`;
    const pdf = await upload(url, fileForm('exam form.pdf', PDF, { hidden: 'true' }));
    expect(pdf.statusCode).toBe(201);
    expect(pdf.json()).toMatchObject({ name: 'exam form.pdf', type: 'application/pdf', hidden: true });
    const jpeg = await upload(
      url,
      multipart([
        { name: 'file', filename: 'photo.jpeg', value: JPEG },
        { name: 'hidden', value: 'false' },
      ]),
    );
    expect(jpeg.json()).toMatchObject({ name: 'photo.jpeg', type: 'image/jpeg', hidden: false });
    const d = await detail();
    expect(d.examinations[0].attachments.map((a: { name: string }) => a.name)).toEqual(['exam form.pdf', 'photo.jpeg']);
    expect(d.reports[0].attachments.map((a: { type: string }) => a.type)).toEqual(['image/png']);
    // A read key downloads hidden ones too.
    const got = await ctx.request({ method: 'GET', url: `/api/attachments/${pdf.json().id}`, token: read });
    expect(got.statusCode).toBe(200);
    expect(got.headers['content-type']).toBe('application/pdf');
  });

  it('keeps HTML sent as .txt as plain text, served to be saved and never sniffed', async () => {
    const html = Buffer.from('<html><body><script>alert("ø")</script></body></html>');
    const res = await toReport('page.txt', html, {}, await newReport());
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ name: 'page.txt', type: 'text/plain' });
    const got = await ctx.request({ method: 'GET', url: `/api/attachments/${res.json().id}`, token: read });
    expect(got.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(got.headers['content-disposition']).toBe('attachment; filename="page.txt"');
    expect(got.headers['x-content-type-options']).toBe('nosniff');
    expect(got.rawPayload.equals(html)).toBe(true);
  });

  it('refuses other types with 415 and writes nothing: NUL in "text", invalid UTF-8, XML, an executable', async () => {
    const before = await count();
    const rid = await newReport();
    for (const [name, bytes] of [
      ['notes.txt', Buffer.from('plain\u0000text')],
      ['notes.txt', Buffer.from([0x68, 0x69, 0xc3, 0x28])],
      ['data.txt', Buffer.from('<?xml version="1.0"?><a/>')],
      ['tool.pdf', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)])],
    ] as const) {
      const res = await toReport(name, bytes, {}, rid);
      expect(res.statusCode, name).toBe(415);
      expect(res.json()).toEqual({ message: 'Only PDF, PNG and JPEG files and plain text (UTF-8) can be attached.' });
    }
    expect(await count()).toBe(before);
  });

  it('keeps the last part of a path as the name, and encodes what the header cannot carry as written', async () => {
    const res = await toReport('C:\\Users\\me\\Prøve\u0007 ;1%.txt', Buffer.from('hej'), {}, await newReport());
    expect(res.json().name).toBe('Prøve ;1%.txt');
    const got = await ctx.request({ method: 'GET', url: `/api/attachments/${res.json().id}`, token: read });
    expect(got.headers['content-disposition']).toBe(`attachment; filename="Pr_ve _1_.txt"; filename*=UTF-8''Pr%C3%B8ve%20%3B1%25.txt`);
  });

  it('refuses a sixth file on a record with 409', async () => {
    const rid = await newReport();
    for (let i = 0; i < 5; i++) expect((await toReport(`n${i}.txt`, Buffer.from(`note ${i}`), {}, rid)).statusCode).toBe(201);
    const sixth = await toReport('n5.txt', Buffer.from('note 5'), {}, rid);
    expect(sixth.statusCode).toBe(409);
    expect(sixth.json().message).toContain('at most 5 files');
  });

  it('lets no race make a sixth: ten uploads at once, five stored', async () => {
    const rid = await newReport();
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => toReport(`r${i}.txt`, Buffer.from(`race ${i}`), {}, rid)));
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 201, 201, 409, 409, 409, 409, 409]);
    const stored = await ctx.services.db.kysely.selectFrom('training_attachments').select('id').where('report_id', '=', rid).execute();
    expect(stored).toHaveLength(5);
  });

  it('refuses a file over 10 MB with 413 (announced or not), and bodies that are not an upload', async () => {
    const before = await count();
    const big = fileForm('big.txt', Buffer.alloc(10 * 1024 * 1024 + 1, 0x61));
    const res = await upload(`/api/trainings/${training}/reports/${report}/attachments`, big);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: 'A file can be at most 10 MB.' });
    const exactly = await toReport('max.txt', Buffer.alloc(10 * 1024 * 1024, 0x61), {}, await newReport());
    expect(exactly.statusCode).toBe(201);
    const json = await ctx.request({
      method: 'POST',
      url: `/api/trainings/${training}/reports/${report}/attachments`,
      token: edit,
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    const none = await upload(`/api/trainings/${training}/reports/${report}/attachments`, multipart([{ name: 'hidden', value: 'true' }]));
    expect(none.statusCode).toBe(422);
    expect(none.json().errors).toEqual({ file: ['The file field is required.'] });
    const broken = await ctx.request({
      method: 'POST',
      url: `/api/trainings/${training}/reports/${report}/attachments`,
      token: edit,
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: 'not a multipart body',
    });
    // A body that ends before any part holds no file.
    expect(broken.statusCode).toBe(422);
    expect(await count()).toBe(before + 1);
  });

  it('answers 404 for a record of another training or none, 401 without a key and 403 with a read key', async () => {
    expect((await upload(`/api/trainings/${training}/reports/999999/attachments`, fileForm('a.txt', Buffer.from('a')))).statusCode).toBe(
      404,
    );
    expect(
      (await upload(`/api/trainings/${training + 1}/reports/${report}/attachments`, fileForm('a.txt', Buffer.from('a')))).statusCode,
    ).toBe(404);
    expect(
      (await upload(`/api/trainings/${training}/examinations/${report + 999}/attachments`, fileForm('a.txt', Buffer.from('a')))).statusCode,
    ).toBe(404);
    const form = fileForm('a.txt', Buffer.from('a'));
    const anonymous = await ctx.request({
      method: 'POST',
      url: `/api/trainings/${training}/reports/${report}/attachments`,
      headers: { 'content-type': form.contentType },
      payload: form.body,
    });
    expect(anonymous.statusCode).toBe(401);
    expect((await upload(`/api/trainings/${training}/reports/${report}/attachments`, form, read)).statusCode).toBe(403);
    expect((await ctx.request({ method: 'GET', url: '/api/attachments/999999', token: read })).statusCode).toBe(404);
  });

  it('removes a file with 204, recording it in the timeline and the audit log', async () => {
    const rid = await newReport();
    const a = (await toReport('gone.txt', Buffer.from('bye'), {}, rid)).json();
    expect((await ctx.request({ method: 'DELETE', url: `/api/attachments/${a.id}`, token: read })).statusCode).toBe(403);
    const res = await ctx.request({ method: 'DELETE', url: `/api/attachments/${a.id}`, token: edit });
    expect(res.statusCode).toBe(204);
    expect((await ctx.request({ method: 'GET', url: `/api/attachments/${a.id}`, token: read })).statusCode).toBe(404);
    expect((await ctx.request({ method: 'DELETE', url: `/api/attachments/${a.id}`, token: edit })).statusCode).toBe(404);
    const timeline = (await detail()).timeline.filter((e: { action: string }) => e.action.startsWith('attachment'));
    expect(timeline.slice(-2)).toEqual([
      expect.objectContaining({
        action: 'attachment',
        actor: expect.stringMatching(/^key:/),
        detail: { report: rid, file: 'gone.txt', hidden: false },
      }),
      expect.objectContaining({ action: 'attachment_removed', detail: { report: rid, file: 'gone.txt' } }),
    ]);
    const audit = await ctx.services.db.kysely
      .selectFrom('audit_log')
      .select(['action', 'after'])
      .where('action', 'in', ['training.attachment', 'training.attachment_removed'])
      .orderBy('id', 'desc')
      .limit(2)
      .execute();
    expect(audit.map((e) => e.action)).toEqual(['training.attachment_removed', 'training.attachment']);
    expect(JSON.parse(audit[1]!.after!)).toMatchObject({ attachment: a.id, name: 'gone.txt', type: 'text/plain', size: 3 });
  });

  it('goes with its report', async () => {
    const rid = await newReport();
    const a = (await toReport('with-report.txt', Buffer.from('x'), {}, rid)).json();
    await ctx.services.db.kysely.deleteFrom('training_reports').where('id', '=', rid).execute();
    expect((await ctx.request({ method: 'GET', url: `/api/attachments/${a.id}`, token: read })).statusCode).toBe(404);
  });

  it('is deleted with its report when the report is deleted through the API', async () => {
    const rid = await newReport();
    const kept = (await toReport('kept.txt', Buffer.from('k'))).json();
    const files = [
      (await toReport('one.txt', Buffer.from('1'), {}, rid)).json(),
      (await toReport('two.png', PNG, { hidden: 'true' }, rid)).json(),
    ];
    const before = await count();
    const gone = await ctx.request({ method: 'DELETE', url: `/api/trainings/${training}/reports/${rid}`, token: edit });
    expect(gone.statusCode).toBe(204);
    expect(await count()).toBe(before - 2);
    for (const a of files)
      expect((await ctx.request({ method: 'GET', url: `/api/attachments/${a.id}`, token: read })).statusCode).toBe(404);
    // The other report's file stays.
    expect((await ctx.request({ method: 'GET', url: `/api/attachments/${kept.id}`, token: read })).statusCode).toBe(200);
    expect((await detail()).reports.some((r: { id: number }) => r.id === rid)).toBe(false);
  });

  it('is deleted with its planned examination when the examination is cancelled', async () => {
    const planned = await ctx.request({
      method: 'POST',
      url: `/api/trainings/${training}/examinations`,
      token: edit,
      payload: { examination_date: '2026-03-20', position: 'EKCH_TWR', examiners: [EX] },
    });
    expect(planned.statusCode).toBe(201);
    const xid = planned.json().id as number;
    const a = (await upload(`/api/trainings/${training}/examinations/${xid}/attachments`, fileForm('plan.txt', Buffer.from('p')))).json();
    const before = await count();
    expect((await ctx.request({ method: 'DELETE', url: `/api/trainings/${training}/examinations/${xid}`, token: edit })).statusCode).toBe(
      204,
    );
    expect(await count()).toBe(before - 1);
    expect((await ctx.request({ method: 'GET', url: `/api/attachments/${a.id}`, token: read })).statusCode).toBe(404);
  });
});
