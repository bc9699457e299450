// Reports after they are written, through the API (contract §20): PATCH edits and publishes (the
// student mailed at that moment, never back to draft: 409), editing a published report publishes it
// again `edited` and mails nobody, DELETE keeps the removal in the timeline and publishes
// training.report_deleted; a report of another training is 404; bad input 422 with nothing written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, buildDivision, buildPosition, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const MAIL_ENV = { SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'Sector <sector@example.org>' };

describe('reports through the API', () => {
  let ctx: TestContext;
  let edit: string;
  let read: string;
  let training: number;
  let other: number;
  const write = async (payload: object, id = training) =>
    (await ctx.request({ method: 'POST', url: `/api/trainings/${id}/reports`, token: edit, payload })).json() as { id: number };
  const patch = (rid: number, payload: object, id = training) =>
    ctx.request({ method: 'PATCH', url: `/api/trainings/${id}/reports/${rid}`, token: edit, payload });
  const remove = (rid: number, id = training) => ctx.request({ method: 'DELETE', url: `/api/trainings/${id}/reports/${rid}`, token: edit });
  const k = () => ctx.services.db.kysely;
  const events = async (type: string) =>
    (await k().selectFrom('events').select('body').where('type', '=', type).orderBy('seq').execute()).map(
      (e) => JSON.parse(e.body).data as Record<string, unknown>,
    );
  const mails = async () => await k().selectFrom('mail_outbox').select(['to_address', 'subject', 'text_body']).orderBy('id').execute();
  const detail = async (id = training) => (await ctx.request({ method: 'GET', url: `/api/trainings/${id}`, token: read })).json();

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: MAIL_ENV });
    await ctx.load(
      buildDivision({
        areas: ['Denmark'],
        users: [
          buildUser({ rating: 'S1', email: 'ada@example.org' }),
          buildUser({ id: 1000002, first_name: 'Bo', email: 'bo@example.org' }),
        ],
        positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP')],
      }),
    );
    edit = await ctx.key('edit');
    read = await ctx.key('read');
    const made = await ctx.request({
      method: 'POST',
      url: '/api/trainings',
      token: edit,
      payload: { user_id: ADA, area: 'Denmark', ratings: ['S2'], status: 2 },
    });
    training = made.json().id;
    const second = await ctx.request({
      method: 'POST',
      url: '/api/trainings',
      token: edit,
      payload: { user_id: 1000002, area: 'Denmark', ratings: ['S2'], status: 2 },
    });
    other = second.json().id;
    await k().deleteFrom('mail_outbox').execute();
  });
  afterAll(() => ctx.close());

  it('edits a draft without event or mail, then publishes it: training.report and the student’s mail at that moment', async () => {
    const draft = await write({ report_date: '2026-11-19', content: 'First *draft*', draft: true });
    const edited = await patch(draft.id, { content: 'Second **draft**', position: 'ekch_twr', improve: 'Phraseology' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      id: draft.id,
      content: 'Second **draft**',
      position: 'EKCH_TWR',
      improve: 'Phraseology',
      draft: true,
    });
    expect(await events('training.report')).toEqual([]);
    expect(await mails()).toEqual([]);

    ctx.setNow(NOW + 60_000);
    const published = await patch(draft.id, { draft: false, report_date: '2026-11-20' });
    expect(published.statusCode).toBe(200);
    expect(published.json()).toMatchObject({ draft: false, report_date: '2026-11-20', content: 'Second **draft**' });
    const [event] = await events('training.report');
    expect(event).toEqual({ report: published.json(), training_id: training });
    const sent = await mails();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to_address).toBe('ada@example.org');
    expect(sent[0]!.text_body).toContain('A report of 2026-11-20 was written.');
    // The API returns the Markdown as written.
    expect((await detail()).reports.find((r: { id: number }) => r.id === draft.id).content).toBe('Second **draft**');
    const actions = (await detail()).timeline.map((e: { action: string }) => e.action);
    expect(actions.slice(-3)).toEqual(['report', 'report_edited', 'report_published']);
    const audit = await ctx.services.audit.read({ target: `training:${training}` });
    expect(audit.map((a: { action: string }) => a.action)).toEqual(
      expect.arrayContaining(['training.report_edited', 'training.report_published']),
    );
    ctx.setNow(NOW);
  });

  it('refuses a published report back to draft with 409, and edits it publishing `edited` without mail', async () => {
    const report = await write({ report_date: '2026-11-18', content: 'Published' });
    await k().deleteFrom('mail_outbox').execute();
    const before = await events('training.report');
    for (const draft of [true, 'true']) {
      const back = await patch(report.id, { draft, content: 'Sneaky' });
      expect(back.statusCode).toBe(409);
      expect(back.json().message).toBe('A published report cannot become a draft again.');
    }
    const edited = await patch(report.id, { content: 'Published, *corrected*' });
    expect(edited.statusCode).toBe(200);
    const after = await events('training.report');
    expect(after).toHaveLength(before.length + 1);
    expect(after.at(-1)).toEqual({ report: edited.json(), training_id: training, edited: true });
    expect(await mails()).toEqual([]);
    // Nothing changed: nothing published.
    expect((await patch(report.id, { content: 'Published, *corrected*', draft: false })).statusCode).toBe(200);
    expect(await events('training.report')).toHaveLength(after.length);
  });

  it('refuses bad fields with 422 per field and writes nothing', async () => {
    const report = await write({ report_date: '2026-11-17', content: 'Kept', draft: true });
    const rows = await k().selectFrom('training_reports').selectAll().orderBy('id').execute();
    const timeline = await k().selectFrom('training_timeline').selectAll().execute();
    const bad = await patch(report.id, { report_date: '2026-02-30', content: '   ', position: 'XX_YY', improve: 'x'.repeat(20_001) });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['content', 'improve', 'position', 'report_date']);
    expect((await patch(report.id, { colour: 'red' })).statusCode).toBe(422);
    expect(await k().selectFrom('training_reports').selectAll().orderBy('id').execute()).toEqual(rows);
    expect(await k().selectFrom('training_timeline').selectAll().execute()).toEqual(timeline);
  });

  it('answers 404 for a report of another training, an unknown one, or an unknown training', async () => {
    const theirs = await write({ report_date: '2026-11-17', content: 'Bo’s', draft: true }, other);
    expect((await patch(theirs.id, { content: 'x' })).statusCode).toBe(404);
    expect((await remove(theirs.id)).statusCode).toBe(404);
    expect((await patch(999_999, { content: 'x' })).statusCode).toBe(404);
    expect((await patch(theirs.id, { content: 'x' }, 999_999)).statusCode).toBe(404);
    expect((await detail(other)).reports[0].content).toBe('Bo’s');
  });

  it('deletes a published report: kept in the timeline, published as training.report_deleted; a draft publishes nothing', async () => {
    const report = await write({ report_date: '2026-11-20', content: 'To go' });
    const res = await remove(report.id);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await detail()).reports.map((r: { id: number }) => r.id)).not.toContain(report.id);
    const [deleted] = await events('training.report_deleted');
    expect(deleted).toMatchObject({ training_id: training, report: { id: report.id, report_date: '2026-11-20', content: 'To go' } });
    expect((await detail()).timeline.at(-1)).toMatchObject({
      action: 'report_deleted',
      detail: { id: report.id, report_date: '2026-11-20' },
    });
    expect((await remove(report.id)).statusCode).toBe(404);

    const draft = await write({ report_date: '2026-11-21', content: 'Draft to go', draft: true });
    expect((await remove(draft.id)).statusCode).toBe(204);
    expect(await events('training.report_deleted')).toHaveLength(1);
    const audit = await ctx.services.audit.read({ target: `training:${training}` });
    expect(audit.filter((a: { action: string }) => a.action === 'training.report_deleted')).toHaveLength(2);
  });

  it('publishes once when two publish the same draft at the same time', async () => {
    const draft = await write({ report_date: '2026-11-22', content: 'Race', draft: true });
    await k().deleteFrom('mail_outbox').execute();
    const before = (await events('training.report')).length;
    const answers = await Promise.all([patch(draft.id, { draft: false }), patch(draft.id, { draft: 'false' })]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    expect(await events('training.report')).toHaveLength(before + 1);
    expect(await mails()).toHaveLength(1);
  });

  it('is in the OpenAPI document with its operationIds', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json();
    const path = doc.paths['/api/trainings/{id}/reports/{rid}'];
    expect(path.patch.operationId).toBe('updateTrainingReport');
    expect(path.delete.operationId).toBe('deleteTrainingReport');
  });
});
