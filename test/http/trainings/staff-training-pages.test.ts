// The staff training pages (contract §17, §18) over HTTP on both databases: the queue and the
// examinations overview, a training created and moved through its forms, errors beside their
// fields, what a Moderator, a Mentor, a Buddy and a member without a role may and may not do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, BO, buildDivision, buildEndorsement, buildPosition, buildRole, buildTraining, buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';

const NOW = Date.UTC(2026, 5, 1, 12);
const MOD = 1000010;
const MEN = 1000011;
const BUD = 1000012;
const EXA = 1000013;
const people = {
  mod: buildUser({ id: MOD, first_name: 'Maja', last_name: 'Mod', rating: 'C1' }),
  men: buildUser({ id: MEN, first_name: 'Mats', last_name: 'Mentor', rating: 'C1' }),
  bud: buildUser({ id: BUD, first_name: 'Bea', last_name: 'Buddy', rating: 'S3' }),
  exa: buildUser({ id: EXA, first_name: 'Erik', last_name: 'Examiner', rating: 'C3' }),
  ada: buildUser({ rating: 'S1' }),
};

describe('the staff training pages', () => {
  let ctx: TestContext;
  const session: Record<string, SignedIn> = {};
  const get = (url: string, who: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie: session[who]!.cookie } });
  const post = async (url: string, fields: Record<string, string>, who: string, page = url) =>
    postForm(ctx.app, url, { _csrf: csrfOf((await get(page, who)).body), ...fields }, session[who]!.cookie);
  const training = async (id: number) =>
    (await ctx.services.trainings.detail(id)) as { status: number; mentors: number[]; timeline: Array<{ action: string; actor: string }> };

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: SIGN_IN_ENV });
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: [...Object.values(people), buildUser({ id: BO, first_name: 'Bo', rating: 'S2' })],
        positions: [buildPosition('EKCH_TWR'), buildPosition('ESSA_TWR')],
        roles: [
          buildRole({ user_id: MOD, area: 'Denmark', role: 'Moderator' }),
          buildRole({ user_id: MEN, area: 'Denmark', role: 'Mentor' }),
          buildRole({ user_id: BUD, area: 'Denmark', role: 'Buddy' }),
        ],
        endorsements: [buildEndorsement({ user_id: EXA, type: 'examiner', rating: 'S3', areas: ['Denmark'] })],
        trainings: [buildTraining({ user_id: BO, area: 'Sweden', created_at: '2026-05-01T10:00:00Z' })],
      }),
    );
    for (const [who, u] of Object.entries(people)) session[who] = await signIn(ctx.app, ctx.services, u);
  });
  afterAll(() => ctx.close());

  it('is closed to a member without a role (403 with the reason)', async () => {
    const res = await get('/staff/trainings', 'ada');
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('The staff pages are for members holding a role');
  });

  it('lets a Moderator create a training through the form, then move, mentor, report and examine it', async () => {
    const bad = await post(
      '/staff/trainings',
      { user_id: String(ADA), area: 'Denmark', type: 'Standard', ratings: 'XX', status: '0' },
      'mod',
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toMatch(/id="training-new-ratings-error">&quot;XX&quot; is neither a rating/);
    const made = await post(
      '/staff/trainings',
      { user_id: String(ADA), area: 'Denmark', type: 'Fast-track', ratings: 'S2', status: '0' },
      'mod',
    );
    expect(made.statusCode).toBe(303);
    const url = String(made.headers.location).replace(/\?.*$/, '');
    const id = Number(url.split('/').pop());
    expect((await get('/staff/trainings', 'mod')).body).toContain(`href="/staff/trainings/${id}"`);

    const noReason = await post(`${url}/status`, { status: '-2', closed_reason: '' }, 'mod', url);
    expect(noReason.statusCode).toBe(422);
    expect(noReason.body).toContain('id="status-closed_reason-error">Closing a training needs a reason');
    expect((await post(`${url}/status`, { status: '2' }, 'mod', url)).statusCode).toBe(303);
    expect((await post(url, { type: 'Fast-track', mentors: String(MEN) }, 'mod')).statusCode).toBe(303);
    // The page's mentor box carries the CID it sends, and the timeline says what the list was before.
    const detail = (await get(url, 'mod')).body;
    expect(detail).toContain(`name="mentors" value="${MEN}" checked`);
    expect(detail).toContain(`Mentors changed from none to Mats Mentor (${MEN}) by Maja Mod (${MOD})`);
    const report = await post(
      `${url}/reports`,
      { report_date: '2026-06-01', content: 'Good first session', draft: 'on', position: '', improve: '' },
      'mod',
      url,
    );
    expect(report.statusCode).toBe(303);
    const notExaminer = await post(
      `${url}/examinations`,
      { examination_date: '2026-06-10', position: 'EKCH_TWR', examiners: String(MOD), result: 'PASSED' },
      'mod',
      url,
    );
    expect(notExaminer.statusCode).toBe(422);
    // The examiner is named, not numbered.
    expect(notExaminer.body).toContain('id="exam-examiners-error">Maja Mod (1000010) holds no active examiner endorsement for Denmark.');
    expect(
      (
        await post(
          `${url}/examinations`,
          { examination_date: '2026-06-10', position: 'EKCH_TWR', examiners: String(EXA), result: 'PASSED' },
          'mod',
          url,
        )
      ).statusCode,
    ).toBe(303);

    const t = await training(id);
    expect(t).toMatchObject({ status: 2, mentors: [MEN] });
    expect(t.timeline.map((e) => e.action)).toEqual(['created', 'status', 'mentors', 'report', 'examination']);
    expect(new Set(t.timeline.map((e) => e.actor))).toEqual(new Set([`member:${MOD}`]));
    const page = (await get(url, 'mod')).body;
    expect(page).toContain('Draft');
    const overview = (await get('/staff/trainings', 'mod')).body;
    expect(overview).toMatch(/Upcoming examinations[\s\S]*2026-06-10[\s\S]*Erik Examiner \(1000013\)[\s\S]*PASSED/);
  });

  it('refuses a CID, status, mentor or examiner that is not a number beside its field, changing nothing', async () => {
    const before = await ctx.services.db.kysely.selectFrom('trainings').selectAll().orderBy('id').execute();
    for (const user_id of ['', 'abc', '99999999999']) {
      const res = await post('/staff/trainings', { user_id, area: 'Denmark', type: 'Standard', ratings: 'S2', status: '0' }, 'mod');
      expect(res.statusCode, user_id).toBe(422);
      expect(res.body).toContain('id="training-new-user_id-error">Give the CID of the member to train (a number).');
    }
    expect(await ctx.services.db.kysely.selectFrom('trainings').selectAll().orderBy('id').execute()).toEqual(before);
    const made = await post(
      '/staff/trainings',
      { user_id: String(BUD), area: 'Denmark', type: 'Standard', ratings: 'C1', status: '0' },
      'mod',
    );
    expect(made.statusCode).toBe(303);
    const url = String(made.headers.location).replace(/\?.*$/, '');
    const stored = await ctx.services.db.kysely.selectFrom('trainings').selectAll().orderBy('id').execute();
    const status = await post(`${url}/status`, { status: 'abc' }, 'mod', url);
    expect(status.statusCode).toBe(422);
    expect(status.body).toContain('id="status-status-error">The status must be one of: -4, -3, -2, -1, 0, 1, 2, 3.');
    const mentors = await post(url, { type: 'Standard', mentors: 'abc' }, 'mod');
    expect(mentors.statusCode).toBe(422);
    expect(mentors.body).toContain('id="change-mentors-error">Each mentor is named by their CID (a number).');
    // The refused form comes back with its boxes as sent, not as stored (no mentors, not paused).
    const ticked = await post(url, { type: 'Nonsense', mentors: String(MEN), paused: 'on' }, 'mod');
    expect(ticked.statusCode).toBe(422);
    expect(ticked.body).toContain(`name="mentors" value="${MEN}" checked`);
    expect(ticked.body).toContain('name="paused" value="on" checked');
    const exams = await ctx.services.db.kysely.selectFrom('training_examinations').selectAll().execute();
    const exam = await post(
      `${url}/examinations`,
      { examination_date: '2026-06-01', position: 'EKCH_TWR', examiners: 'abc', result: 'PASSED' },
      'mod',
      url,
    );
    expect(exam.statusCode).toBe(422);
    expect(exam.body).toContain('id="exam-examiners-error">Each examiner is named by their CID (a number).');
    expect(await ctx.services.db.kysely.selectFrom('training_examinations').selectAll().execute()).toEqual(exams);
    expect(await ctx.services.db.kysely.selectFrom('trainings').selectAll().orderBy('id').execute()).toEqual(stored);
  });

  it('lets a Mentor see and move their own trainee between 1 and 3 only, and not close the training', async () => {
    const [t] = (await ctx.services.trainings.list({ user_id: ADA })) as Array<{ id: number }>;
    const url = `/staff/trainings/${t!.id}`;
    expect((await post(`${url}/status`, { status: '3' }, 'men', url)).statusCode).toBe(303);
    const close = await post(`${url}/status`, { status: '-2', closed_reason: 'No' }, 'men', url);
    expect(close.statusCode).toBe(403);
    expect(close.body).toContain('a mentor moves their own trainees between statuses 1 and 3');
    const change = await post(url, { type: 'Standard' }, 'men', url);
    expect(change.statusCode).toBe(403);
    // Bo's training (Sweden) is not theirs to see.
    const [bo] = (await ctx.services.trainings.list({ user_id: BO })) as Array<{ id: number }>;
    expect((await get(`/staff/trainings/${bo!.id}`, 'men')).statusCode).toBe(404);
    expect((await training(t!.id)).status).toBe(3);
  });

  it('lets a Buddy write reports but not change the status', async () => {
    const [t] = (await ctx.services.trainings.list({ user_id: ADA })) as Array<{ id: number }>;
    const url = `/staff/trainings/${t!.id}`;
    expect(
      (await post(`${url}/reports`, { report_date: '2026-06-02', content: 'Buddy notes', position: '', improve: '' }, 'bud', url))
        .statusCode,
    ).toBe(303);
    const moved = await post(`${url}/status`, { status: '1' }, 'bud', url);
    expect(moved.statusCode).toBe(403);
    expect((await training(t!.id)).status).toBe(3);
  });

  it("shows the summary with the application's answers beside the actions, each form only to who may use it, reports newest first", async () => {
    const [t] = (await ctx.services.trainings.list({ user_id: ADA })) as Array<{ id: number }>;
    const url = `/staff/trainings/${t!.id}`;
    await ctx.services.db.kysely
      .updateTable('trainings')
      .set({ motivation: 'I fly real aircraft and want to talk to them.', experience: 4, english_only: 1 })
      .where('id', '=', t!.id)
      .execute();
    const pages = { mod: (await get(url, 'mod')).body, men: (await get(url, 'men')).body, bud: (await get(url, 'bud')).body };
    for (const [who, body] of Object.entries(pages)) {
      const summary = body.slice(body.indexOf('id="summary-title"'), body.indexOf('class="training-actions"'));
      expect(summary, who).toContain('<dt>Motivation</dt><dd class="report-text">I fly real aircraft and want to talk to them.</dd>');
      expect(summary, who).toContain('<dt>Experience</dt><dd>Real-world ATC</dd>');
      expect(summary, who).toContain('<dt>English only</dt><dd>Yes: trained in English only</dd>');
      expect(summary, who).toContain('<dt>Mentors</dt><dd>Mats Mentor (1000011)</dd>');
      expect(body.indexOf('class="training-desk"'), who).toBeLessThan(body.indexOf('id="summary-title"'));
      expect(body.indexOf('id="report-title"'), who).toBeGreaterThan(body.indexOf('class="training-actions"'));
      // Newest first: the Buddy's report of 2026-06-02 above the draft of 2026-06-01.
      const reports = body.slice(body.indexOf('id="reports-title"'));
      expect(reports.indexOf('Buddy notes'), who).toBeLessThan(reports.indexOf('Good first session'));
    }
    // Status: the area's Moderator and the trainee's mentor, not a Buddy; type, mentors and links: the Moderator only.
    expect(pages.mod).toContain('id="status-title"');
    expect(pages.men).toContain('id="status-title"');
    expect(pages.bud).not.toContain('id="status-title"');
    expect(pages.mod).toContain('id="type-title"');
    expect(pages.mod).toContain('id="link-title"');
    for (const who of ['men', 'bud'] as const) {
      expect(pages[who], who).not.toContain('id="type-title"');
      expect(pages[who], who).not.toContain('id="link-title"');
      expect(pages[who], who).toContain('id="report-title"');
    }
  });
});
