// One-time links (contract §20) over HTTP on both databases: made by a Moderator or Administrator of
// the training's area, shown once and stored as a hash; opened by a signed-in member holding a staff
// role, who sees the summary and published reports and writes one report, which uses the link up
// (a refused form does not); used, expired or unknown: 410. Audited and in the timeline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { readDatabase } from '../../support/db-state.js';
import { buildDivision, buildPosition, buildRole, buildTraining, buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';

const NOW = Date.UTC(2026, 5, 1, 12);
const DAY = 86_400_000;
const MOD = 1000010;
const MEN = 1000011;
const BUD = 1000012;
const NOROLE = 1000013;
const STUDENT = 1000014;
const people = {
  mod: buildUser({ id: MOD, first_name: 'Maja', last_name: 'Mod', rating: 'C1' }),
  men: buildUser({ id: MEN, first_name: 'Mats', last_name: 'Mentor', rating: 'C1' }),
  bud: buildUser({ id: BUD, first_name: 'Bea', last_name: 'Buddy', rating: 'S3' }),
  norole: buildUser({ id: NOROLE, first_name: 'Nils', last_name: 'Nobody', rating: 'S2' }),
  student: buildUser({ id: STUDENT, first_name: 'Stina', last_name: 'Student', rating: 'S1', email: 'stina@example.org' }),
};

describe('one-time links', () => {
  let ctx: TestContext;
  let trainingId = 0;
  const session: Record<string, SignedIn> = {};
  const get = (url: string, who?: string) => ctx.app.inject({ method: 'GET', url, headers: who ? { cookie: session[who]!.cookie } : {} });
  const post = async (url: string, fields: Record<string, string>, who: string, page = url) =>
    postForm(ctx.app, url, { _csrf: csrfOf((await get(page, who)).body), ...fields }, session[who]!.cookie);
  const makeLink = async (who = 'mod') =>
    post(`/staff/trainings/${trainingId}/links`, { kind: 'report' }, who, `/staff/trainings/${trainingId}`);
  const pathOf = (body: string) => new URL(/id="link-url" class="feed-url" readonly value="([^"]+)"/.exec(body)![1]!).pathname;

  const rows = (sql: (db: any) => Promise<any>) => readDatabase(ctx.databaseUrl, sql);

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: SIGN_IN_ENV });
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: Object.values(people),
        positions: [buildPosition('EKCH_TWR')],
        roles: [
          buildRole({ user_id: MOD, area: 'Denmark', role: 'Moderator' }),
          buildRole({ user_id: MEN, area: 'Denmark', role: 'Mentor' }),
          buildRole({ user_id: BUD, area: 'Sweden', role: 'Buddy' }),
        ],
        trainings: [buildTraining({ user_id: STUDENT, area: 'Denmark', status: 2, created_at: '2026-05-01T10:00:00Z' })],
      }),
    );
    trainingId = (await rows((db) => db.selectFrom('trainings').select('id').executeTakeFirstOrThrow())).id;
    for (const [who, u] of Object.entries(people)) session[who] = await signIn(ctx.app, ctx.services, u);
    // The mentor assigned; a published report and a draft, written by the mentor.
    const page = `/staff/trainings/${trainingId}`;
    expect((await post(page, { type: 'Standard', mentors: String(MEN) }, 'mod')).statusCode).toBe(303);
    expect(
      (await post(`${page}/reports`, { report_date: '2026-05-20', content: 'Published words', draft: '' }, 'men', page)).statusCode,
    ).toBe(303);
    expect(
      (await post(`${page}/reports`, { report_date: '2026-05-21', content: 'Draft words', draft: 'on' }, 'men', page)).statusCode,
    ).toBe(303);
  });
  afterAll(() => ctx.close());

  it('is made by a Moderator of the area only, shown once, and stored as a hash', async () => {
    const refused = await makeLink('men');
    expect(refused.statusCode).toBe(403);
    expect(refused.body).toContain('One-time links are made by the area');
    expect(await rows((db) => db.selectFrom('training_links').selectAll().execute())).toEqual([]);

    const made = await makeLink();
    expect(made.statusCode).toBe(201);
    expect(made.headers['cache-control']).toBe('no-store');
    expect(made.headers['referrer-policy']).toBe('no-referrer');
    const path = pathOf(made.body);
    expect(path).toMatch(/^\/training\/link\/slk_[A-Za-z0-9_-]{32}$/);
    const token = path.split('/').pop()!;
    const stored = await rows((db) => db.selectFrom('training_links').selectAll().execute());
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(token);
    expect(stored[0]).toMatchObject({ training_id: trainingId, kind: 'report', created_by: MOD, expires_at: NOW + 7 * DAY, used_at: null });
    const audit = await ctx.services.audit.read({ target: `training:${trainingId}` });
    expect(audit.filter((e) => e.action === 'training.link')).toHaveLength(1);
    expect(JSON.stringify(audit)).not.toContain(token);
    const detail = await ctx.services.trainings.detail(trainingId);
    expect(detail.timeline.map((e) => e.action)).toContain('link');
  });

  it('opens for a signed-in member holding a staff role, with the summary and the published reports only', async () => {
    const path = pathOf((await makeLink()).body);
    const signedOut = await get(path);
    expect(signedOut.statusCode).toBe(303);
    expect(String(signedOut.headers.location)).toMatch(/^\/auth\/login\?next=/);
    const noRole = await get(path, 'norole');
    expect(noRole.statusCode).toBe(403);
    expect(noRole.body).toContain('This link is for a member holding a staff role');

    const page = await get(path, 'bud');
    expect(page.statusCode).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('Report for the training of Stina Student');
    expect(page.body).toContain('Mats Mentor (1000011)');
    expect(page.body).toContain('Published words');
    expect(page.body).not.toContain('Draft words');
    expect(page.body).toContain(`action="${path}"`);
  });

  it('writes one report: a refused form leaves the link unused, the saved report uses it up', async () => {
    const path = pathOf((await makeLink()).body);
    const before = await rows((db) => db.selectFrom('training_reports').selectAll().execute());
    const refused = await post(path, { report_date: '2026-05-30', content: '   ' }, 'bud');
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('id="content-error">The report must be 1 to');
    expect(await rows((db) => db.selectFrom('training_reports').selectAll().execute())).toEqual(before);
    expect((await get(path, 'bud')).statusCode).toBe(200);

    const saved = await post(path, { report_date: '2026-05-30', content: 'Sector file well kept', position: 'EKCH_TWR' }, 'bud');
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/training/link/saved');
    const reports = await rows((db) => db.selectFrom('training_reports').selectAll().where('author_id', '=', BUD).execute());
    expect(reports).toMatchObject([{ training_id: trainingId, content: 'Sector file well kept', position: 'EKCH_TWR', draft: 0 }]);
    // Published as any report is (and so mailed to the student where mail is set up).
    const events = await rows((db) => db.selectFrom('events').select(['type', 'body']).where('type', '=', 'training.report').execute());
    expect(events.some((e: { body: string }) => e.body.includes('Sector file well kept'))).toBe(true);
    const detail = await ctx.services.trainings.detail(trainingId);
    expect(detail.timeline.map((e) => e.action)).toEqual(expect.arrayContaining(['report', 'link_used']));

    for (const again of [await get(path, 'bud'), await post(path, { report_date: '2026-05-31', content: 'Twice' }, 'mod', '/staff')]) {
      expect(again.statusCode).toBe(410);
      expect(again.body).toContain('This link is used up.');
    }
    expect(await rows((db) => db.selectFrom('training_reports').selectAll().where('content', '=', 'Twice').execute())).toEqual([]);
  });

  it('is gone after seven days, and an unknown or malformed token is gone too', async () => {
    const path = pathOf((await makeLink()).body);
    ctx.setNow(NOW + 7 * DAY);
    try {
      const expired = await get(path, 'bud');
      expect(expired.statusCode).toBe(410);
      expect(expired.body).toContain('This link is expired.');
    } finally {
      ctx.setNow(NOW);
    }
    for (const url of [
      '/training/link/slk_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
      '/training/link/nonsense',
      `/training/link/${'x'.repeat(90)}`,
    ]) {
      const res = await get(url, 'bud');
      expect(res.statusCode, url).toBe(410);
      expect(res.body, url).toContain('This link is not known.');
    }
  });
});
