// Report templates (contract §20) over HTTP on both databases: kept by the Moderators and
// Administrators of an area on /staff/templates (others get 403 and no link), names 1–80 and unique
// in the area, text 1–20000, audited; the report forms offer the training area's templates as links
// that open the form with the template's text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, buildDivision, buildPosition, buildRole, buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const MOD = 1000010;
const MEN = 1000011;
const SWE = 1000012;
const people = {
  mod: buildUser({ id: MOD, first_name: 'Maja', last_name: 'Mod', rating: 'C1' }),
  men: buildUser({ id: MEN, first_name: 'Mats', last_name: 'Mentor', rating: 'C1' }),
  swe: buildUser({ id: SWE, first_name: 'Sven', last_name: 'Swede', rating: 'C1' }),
};

describe('report templates', () => {
  let ctx: TestContext;
  let training: string;
  const session: Record<string, SignedIn> = {};
  const get = (path: string, who: string) => ctx.app.inject({ method: 'GET', url: path, headers: { cookie: session[who]!.cookie } });
  const post = async (path: string, fields: Record<string, string>, who: string, page = '/staff') =>
    postForm(ctx.app, path, { _csrf: csrfOf((await get(page, who)).body), ...fields }, session[who]!.cookie);
  const rows = () => ctx.services.db.kysely.selectFrom('report_templates').selectAll().orderBy('id').execute();

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: SIGN_IN_ENV });
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: [...Object.values(people), buildUser({ rating: 'S1' })],
        positions: [buildPosition('EKCH_TWR')],
        roles: [
          buildRole({ user_id: MOD, area: 'Denmark', role: 'Moderator' }),
          buildRole({ user_id: MEN, area: 'Denmark', role: 'Mentor' }),
          buildRole({ user_id: SWE, area: 'Sweden', role: 'Moderator' }),
        ],
      }),
    );
    const edit = await ctx.key('edit');
    const made = await ctx.request({
      method: 'POST',
      url: '/api/trainings',
      token: edit,
      payload: { user_id: ADA, area: 'Denmark', ratings: ['S2'], status: 2 },
    });
    training = `/staff/trainings/${made.json().id}`;
    await ctx.request({ method: 'PATCH', url: `/api/trainings/${made.json().id}`, token: edit, payload: { mentors: [MEN] } });
    for (const [who, u] of Object.entries(people)) session[who] = await signIn(ctx.app, ctx.services, u);
  });
  afterAll(() => ctx.close());

  it('is refused to a Mentor (403) and not linked for them; linked for a Moderator', async () => {
    const res = await get('/staff/templates', 'men');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Report templates are kept by the area&#39;s Administrators and Moderators.');
    expect((await get('/staff', 'men')).body).not.toContain('href="/staff/templates"');
    expect((await get('/staff', 'mod')).body).toContain('href="/staff/templates"');
    const made = await post('/staff/templates', { area: 'Denmark', name: 'Mine', content: 'x' }, 'men');
    expect(made.statusCode).toBe(403);
    expect(await rows()).toEqual([]);
  });

  it('lets a Moderator add, edit and delete templates of their area, refusing bad names and text beside their fields', async () => {
    const page = (await get('/staff/templates', 'mod')).body;
    expect(page).toMatch(/<select id="template-new-area" name="area"[^>]*>\s*<option value="Denmark"/);
    expect(page).not.toContain('value="Sweden"');
    for (const [fields, field, message] of [
      [{ name: '', content: 'x' }, 'name', 'The name must be 1 to 80 characters.'],
      [{ name: 'n'.repeat(81), content: 'x' }, 'name', 'The name must be 1 to 80 characters.'],
      [{ name: 'Ok', content: '  ' }, 'content', 'The template must be 1 to 20000 characters.'],
      [{ name: 'Ok', content: 'c'.repeat(20_001) }, 'content', 'The template must be 1 to 20000 characters.'],
    ] as const) {
      const res = await post('/staff/templates', { area: 'Denmark', ...fields }, 'mod');
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain(`id="template-new-${field}-error">${message}`);
    }
    const sweden = await post('/staff/templates', { area: 'Sweden', name: 'Theirs', content: 'x' }, 'mod');
    expect(sweden.statusCode).toBe(403);
    expect(await rows()).toEqual([]);

    const made = await post(
      '/staff/templates',
      { area: 'Denmark', name: 'First session', content: '## Briefing\n\n- **Phraseology**:' },
      'mod',
    );
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toBe('/staff/templates?done=created');
    const twice = await post('/staff/templates', { area: 'Denmark', name: 'First session', content: 'again' }, 'mod');
    expect(twice.statusCode).toBe(422);
    expect(twice.body).toContain('id="template-new-name-error">Denmark already has a template named First session.');
    const [t] = await rows();
    expect(t).toMatchObject({ name: 'First session', content: '## Briefing\n\n- **Phraseology**:' });
    const list = (await get('/staff/templates', 'mod')).body;
    expect(list).toContain('<h2>Briefing</h2>');
    expect(list).toContain(`href="/staff/templates/${t!.id}"`);

    expect((await get(`/staff/templates/${t!.id}`, 'swe')).statusCode).toBe(403);
    expect((await post(`/staff/templates/${t!.id}`, { name: 'Taken', content: 'x' }, 'swe')).statusCode).toBe(403);
    expect((await get('/staff/templates/999999', 'mod')).statusCode).toBe(404);
    const form = (await get(`/staff/templates/${t!.id}`, 'mod')).body;
    expect(form).toContain('value="First session"');
    const saved = await post(`/staff/templates/${t!.id}`, { name: 'Session one', content: '## Briefing\n\nNotes' }, 'mod');
    expect(saved.statusCode).toBe(303);
    expect((await rows())[0]).toMatchObject({ name: 'Session one', content: '## Briefing\n\nNotes' });
    const audit = await ctx.services.audit.read({ target: `report_template:${t!.id}` });
    expect(audit.map((a: { action: string }) => a.action).sort()).toEqual(['report_template.created', 'report_template.updated']);
  });

  it('offers the area’s templates on the report forms; a link opens the form with the template’s text, without JavaScript', async () => {
    const [t] = await rows();
    const page = (await get(training, 'men')).body;
    const link = `${training}?template=${t!.id}#report-content`;
    expect(page).toContain('Start from template');
    expect(page).toContain(`href="${link.replace(/&/g, '&amp;')}"`);
    const filled = (await get(`${training}?template=${t!.id}`, 'men')).body;
    expect(filled).toContain('aria-describedby="report-content-hint">## Briefing\n\nNotes</textarea>');
    // The edit form of a report offers them too, and keeps the report's date.
    expect(
      (await post(`${training}/reports`, { report_date: '2026-11-19', content: 'Old text', position: '', improve: '' }, 'men', training))
        .statusCode,
    ).toBe(303);
    const [r] = await ctx.services.db.kysely.selectFrom('training_reports').select('id').execute();
    const edit = `${training}/reports/${r!.id}/edit`;
    expect((await get(edit, 'men')).body).toContain(`href="${edit}?template=${t!.id}#edit-content"`);
    const editFilled = (await get(`${edit}?template=${t!.id}`, 'men')).body;
    expect(editFilled).toContain('aria-describedby="edit-content-hint">## Briefing\n\nNotes</textarea>');
    expect(editFilled).toContain('value="2026-11-19"');
    // A template of another area, or none, fills nothing.
    expect((await get(`${training}?template=999`, 'men')).body).toContain('aria-describedby="report-content-hint"></textarea>');
  });

  it('deletes a template (audited) and the forms no longer offer it', async () => {
    const [t] = await rows();
    expect((await post(`/staff/templates/${t!.id}/delete`, {}, 'men')).statusCode).toBe(403);
    expect((await post(`/staff/templates/${t!.id}/delete`, {}, 'mod')).statusCode).toBe(303);
    expect(await rows()).toEqual([]);
    expect((await get(training, 'men')).body).not.toContain('Start from template');
    const audit = await ctx.services.audit.read({ target: `report_template:${t!.id}` });
    expect(audit.map((a: { action: string }) => a.action)).toContain('report_template.deleted');
  });
});
