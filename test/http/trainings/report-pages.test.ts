// A report's Edit, Publish and Delete on the staff training page (contract §20) over HTTP on both
// databases: shown only to whoever may use them and refused (403) to anyone else — a draft by its
// author or staff who may write the training's reports, a published report by its author or a
// Moderator/Administrator — the edit form at its own URL, the position picker, Markdown rendered
// on both pages with nothing of an attacker's markup left, and the timeline's words.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, buildDivision, buildPosition, buildRole, buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const MOD = 1000010;
const MEN = 1000011;
const BUD = 1000012;
const OTHER = 1000013;
const people = {
  mod: buildUser({ id: MOD, first_name: 'Maja', last_name: 'Mod', rating: 'C1' }),
  men: buildUser({ id: MEN, first_name: 'Mats', last_name: 'Mentor', rating: 'C1' }),
  bud: buildUser({ id: BUD, first_name: 'Bea', last_name: 'Buddy', rating: 'S3' }),
  other: buildUser({ id: OTHER, first_name: 'Olle', last_name: 'Other', rating: 'C1' }),
  ada: buildUser({ rating: 'S1', email: 'ada@example.org' }),
};
const XSS =
  'Good **radio** work.\n\n<script>alert(1)</script> <img src=x onerror=alert(1)> [click](javascript:alert(1)) [ok](https://example.org)';

describe('a report’s forms on the staff training page', () => {
  let ctx: TestContext;
  let url: string;
  const session: Record<string, SignedIn> = {};
  const get = (path: string, who: string) => ctx.app.inject({ method: 'GET', url: path, headers: { cookie: session[who]!.cookie } });
  const post = async (path: string, fields: Record<string, string>, who: string, page = url) =>
    postForm(ctx.app, path, { _csrf: csrfOf((await get(page, who)).body), ...fields }, session[who]!.cookie);
  const reports = async () => ctx.services.db.kysely.selectFrom('training_reports').selectAll().orderBy('id').execute();
  const mails = async () => ctx.services.db.kysely.selectFrom('mail_outbox').select(['to_address', 'text_body', 'html_body']).execute();
  const lastReport = async () => (await reports()).at(-1)!;
  const write = async (who: string, fields: Record<string, string>) => {
    const res = await post(`${url}/reports`, { report_date: '2026-11-20', position: '', improve: '', ...fields }, who);
    expect(res.statusCode, res.body).toBe(303);
    return (await lastReport()).id;
  };

  beforeAll(async () => {
    ctx = await createTestContext({
      now: NOW,
      env: { ...SIGN_IN_ENV, SMTP_URL: 'smtp://127.0.0.1:2525', MAIL_FROM: 'Sector <s@example.org>' },
    });
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: Object.values(people),
        positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP'), buildPosition('ESSA_TWR', { area: 'Sweden' })],
        roles: [
          buildRole({ user_id: MOD, area: 'Denmark', role: 'Moderator' }),
          buildRole({ user_id: MEN, area: 'Denmark', role: 'Mentor' }),
          buildRole({ user_id: BUD, area: 'Denmark', role: 'Buddy' }),
          buildRole({ user_id: OTHER, area: 'Denmark', role: 'Mentor' }),
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
    await ctx.request({ method: 'PATCH', url: `/api/trainings/${made.json().id}`, token: edit, payload: { mentors: [MEN] } });
    url = `/staff/trainings/${made.json().id}`;
    for (const [who, u] of Object.entries(people)) session[who] = await signIn(ctx.app, ctx.services, u);
    await ctx.services.db.kysely.deleteFrom('mail_outbox').execute();
  });
  afterAll(() => ctx.close());

  it('offers the area’s positions in a picker, not free text', async () => {
    const page = (await get(url, 'men')).body;
    const picker = /<select id="report-position" name="position"[^>]*>([\s\S]*?)<\/select>/.exec(page)?.[1] ?? '';
    expect(picker).toContain('>No position</option>');
    expect(picker).toContain('value="EKCH_TWR"');
    expect(picker).toContain('value="EKCH_APP"');
    expect(picker).not.toContain('ESSA_TWR');
  });

  it('lets the mentor write a draft, edit it at its own URL and publish it: the student is mailed then', async () => {
    const rid = await write('men', { content: 'A *draft*', position: 'EKCH_TWR', draft: 'on' });
    const page = (await get(url, 'men')).body;
    expect(page).toContain(`href="${url}/reports/${rid}/edit"`);
    expect(page).toContain(`action="${url}/reports/${rid}/publish"`);
    expect(page).toContain(`action="${url}/reports/${rid}/delete"`);
    const form = (await get(`${url}/reports/${rid}/edit`, 'men')).body;
    expect(form).toContain('A *draft*</textarea>');
    expect(form).toMatch(/<option value="EKCH_TWR"\s+selected>/);
    expect(form).toContain('name="draft" value="on" checked');

    const bad = await post(
      `${url}/reports/${rid}`,
      { report_date: '2026-02-30', content: 'x', position: '', improve: '', draft: 'on' },
      'men',
      `${url}/reports/${rid}/edit`,
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('id="edit-report_date-error">The report_date field must be a date, YYYY-MM-DD.');
    expect((await lastReport()).content).toBe('A *draft*');

    const saved = await post(
      `${url}/reports/${rid}`,
      { report_date: '2026-11-20', content: XSS, position: 'EKCH_APP', improve: 'Read back **all**', draft: 'on' },
      'men',
      `${url}/reports/${rid}/edit`,
    );
    expect(saved.statusCode).toBe(303);
    expect(await mails()).toEqual([]);
    const published = await post(`${url}/reports/${rid}/publish`, {}, 'men');
    expect(published.statusCode).toBe(303);
    expect(published.headers.location).toContain('done=report-published');
    const sent = await mails();
    expect(sent.map((m) => m.to_address)).toEqual(['ada@example.org']);
    // Mail keeps plain text: the report's text is not in it, nor any markup of it.
    expect(sent[0]!.html_body).not.toContain('<script>');
    expect((await lastReport()).draft).toBe(0);
  });

  it('renders the Markdown on the student’s and the staff page, with none of the attacker’s markup', async () => {
    for (const page of [(await get('/my/training', 'ada')).body, (await get(url, 'mod')).body]) {
      expect(page).toContain('<strong>radio</strong>');
      expect(page).toContain('<strong>all</strong>');
      expect(page).toContain('<a href="https://example.org">ok</a>');
      expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(page).not.toMatch(/<script>alert|<img src=x|href="javascript:/i);
    }
  });

  it('shows Edit and Delete of a published report only to its author and the Moderator, and refuses the others', async () => {
    const rid = (await lastReport()).id;
    const edit = `${url}/reports/${rid}/edit`;
    expect((await get(url, 'mod')).body).toContain(`href="${edit}"`);
    expect((await get(url, 'men')).body).toContain(`href="${edit}"`);
    expect((await get(url, 'bud')).body).not.toContain(`href="${edit}"`);
    expect((await get(url, 'bud')).body).not.toContain(`/reports/${rid}/delete`);
    expect((await get(edit, 'bud')).statusCode).toBe(403);
    const fields = { report_date: '2026-11-20', content: 'Buddy rewrite', position: '', improve: '' };
    const refused = await post(`${url}/reports/${rid}`, fields, 'bud');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('A published report is changed by its author or by the area&#39;s Moderators and Administrators.');
    expect((await post(`${url}/reports/${rid}/delete`, {}, 'bud')).statusCode).toBe(403);
    // A mentor of the area who is not the student's sees no training at all.
    expect((await get(edit, 'other')).statusCode).toBe(404);
    expect((await post(`${url}/reports/${rid}/delete`, {}, 'other', '/staff')).statusCode).toBe(403);
    // The published report's form has no Draft box.
    const form = (await get(edit, 'mod')).body;
    expect(form).not.toContain('name="draft"');
    const byMod = await post(`${url}/reports/${rid}`, { ...fields, content: 'Corrected by the moderator' }, 'mod', edit);
    expect(byMod.statusCode).toBe(303);
    expect((await lastReport()).content).toBe('Corrected by the moderator');
    expect(await mails()).toHaveLength(1);
  });

  it('lets a Buddy change another’s draft (they may write reports), but a mentor not their trainee’s', async () => {
    const rid = await write('mod', { content: 'Moderator draft', draft: 'on' });
    expect((await get(url, 'bud')).body).toContain(`href="${url}/reports/${rid}/edit"`);
    const edited = await post(
      `${url}/reports/${rid}`,
      { report_date: '2026-11-21', content: 'Buddy’s edit', position: '', improve: '', draft: 'on' },
      'bud',
    );
    expect(edited.statusCode).toBe(303);
    expect((await lastReport()).content).toBe('Buddy’s edit');
    expect((await post(`${url}/reports/${rid}/publish`, {}, 'other', '/staff')).statusCode).toBe(403);
    expect((await post(`${url}/reports/${rid}/delete`, {}, 'bud')).statusCode).toBe(303);
    expect((await reports()).map((r) => r.id)).not.toContain(rid);
  });

  it('deletes a published report, keeping it in the timeline in words', async () => {
    const rid = (await reports()).find((r) => r.draft === 0)!.id;
    const res = await post(`${url}/reports/${rid}/delete`, {}, 'mod');
    expect(res.statusCode).toBe(303);
    const page = (await get(url, 'mod')).body;
    expect(page).toContain('report of 2026-11-20 removed by Maja Mod');
    expect(page).toContain('report of 2026-11-20 published by Mats Mentor');
    expect(page).toContain('draft report of 2026-11-21 removed by Bea Buddy');
    expect((await get('/my/training', 'ada')).body).not.toContain('Corrected by the moderator');
    expect((await get(`${url}/reports/${rid}/edit`, 'mod')).statusCode).toBe(404);
  });
});
