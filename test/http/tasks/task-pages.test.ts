// The tasks pages (contract §21) and facilities with tiers (§22) over HTTP on both databases: the
// training page lists its tasks and offers "Request…" with the area's Moderators and Administrators
// (the most used first) to its mentor; a refused request comes back beside its field; /staff/tasks
// shows received, sent and closed tasks with the forms each viewer may use; completing a solo task
// opens the solo form prefilled; /my counts the tasks waiting; a completed rating training offers the
// upgrade task; facilities' tiers through the API and the Administrators' page.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, BO, buildPosition } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';
import { ADMIN, assignAdasMentor, buildStaffDivision, MENTOR, MOD, STAFF_USERS } from '../../support/staff-division.js';

const NOW = Date.UTC(2026, 10, 20, 12);

describe('tasks pages and facilities', () => {
  let ctx: TestContext;
  let edit: string;
  let ada: number;
  let bo: number;
  const session: Record<number, SignedIn> = {};
  const get = (path: string, who: number) => ctx.app.inject({ method: 'GET', url: path, headers: { cookie: session[who]!.cookie } });
  const post = async (path: string, fields: Record<string, string>, who: number) =>
    postForm(ctx.app, path, { _csrf: csrfOf((await get('/staff', who)).body), ...fields }, session[who]!.cookie);
  const tasks = () => ctx.services.db.kysely.selectFrom('tasks').selectAll().orderBy('id').execute();

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: SIGN_IN_ENV });
    await ctx.load(
      buildStaffDivision({
        positions: [buildPosition('EKCH_TWR', { required_facility: 'T1 EKCH TWR' }), buildPosition('EKCH_APP')],
      }),
    );
    await assignAdasMentor(ctx.services.db.kysely);
    const rows = await ctx.services.db.kysely.selectFrom('trainings').select(['id', 'user_id']).execute();
    ada = rows.find((r) => r.user_id === ADA)!.id;
    bo = rows.find((r) => r.user_id === BO)!.id;
    edit = await ctx.key('edit');
    for (const u of STAFF_USERS) session[u.id] = await signIn(ctx.app, ctx.services, u);
  });
  afterAll(() => ctx.close());

  it('offers the mentor "Request…" on the training page and sends it; a refusal is shown beside its field', async () => {
    // One earlier task to the Administrator makes them the most used assignee of Denmark.
    const api = { type: 'theory_exam', subject_user_id: BO, training_id: bo, rating: 'S2', assignee_id: ADMIN, creator_id: MOD };
    expect((await ctx.request({ method: 'POST', url: '/api/tasks', token: edit, payload: api })).statusCode).toBe(201);
    const page = (await get(`/staff/trainings/${ada}`, MENTOR)).body;
    expect(page).toContain('<summary>Request…</summary>');
    const select = /<select id="task-assignee_id" name="assignee_id"[^>]*>([\s\S]*?)<\/select>/.exec(page)![1]!;
    expect([...select.matchAll(/value="(\d+)"\s*>([^<]+)</g)].map((m) => m[2])).toEqual([
      'Alma Andersen (1000010)',
      'Mona Madsen (1000011)',
    ]);
    const refused = await post(`/staff/trainings/${ada}/tasks`, { type: 'solo_endorsement', assignee_id: String(MOD) }, MENTOR);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('id="task-theory_exam_passed-error">Confirm that the student has passed the theoretical exam.');
    const sent = await post(
      `/staff/trainings/${ada}/tasks`,
      { type: 'solo_endorsement', assignee_id: String(MOD), theory_exam_passed: 'on', message: 'Ready for EKCH_TWR.' },
      MENTOR,
    );
    expect(sent.statusCode, sent.body).toBe(303);
    expect(sent.headers.location).toBe(`/staff/trainings/${ada}?done=task#tasks-title`);
    expect((await tasks()).at(-1)).toMatchObject({ type: 'solo_endorsement', creator_id: MENTOR, assignee_id: MOD, subject_user_id: ADA });
    const listed = (await get(`/staff/trainings/${ada}`, MENTOR)).body;
    expect(listed).toContain('<strong>Solo endorsement</strong> for <a href="/staff/users/1000001">Ada Lind (1000001)</a>');
    expect(listed).toContain('Waiting · from Mette Mikkelsen (1000012) to Mona Madsen (1000011)');
    expect(listed).toContain('>Withdraw</button>');
    // Bo's training is not the mentor's: no request form for them there (they do not see it at all).
    expect((await get(`/staff/trainings/${bo}/tasks`, MENTOR)).statusCode).toBe(404);
  });

  it('shows the assignee their tasks with complete and decline; a solo completed opens the solo form prefilled', async () => {
    const home = (await get('/my', MOD)).body;
    expect(home).toContain('<a href="/staff/tasks">1 task is waiting for you</a>');
    const page = (await get('/staff/tasks', MOD)).body;
    expect(page).toContain('Waiting for you (1)');
    expect(page).toContain('>Complete and issue the solo</button>');
    expect(page).toContain('>Decline</button>');
    const solo = (await tasks()).at(-1)!;
    // The creator cannot complete it (403), the assignee does, once.
    expect((await post(`/staff/tasks/${solo.id}/close`, { status: 'completed' }, MENTOR)).statusCode).toBe(403);
    const done = await post(`/staff/tasks/${solo.id}/close`, { status: 'completed', closed_message: 'Issued.' }, MOD);
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/staff/users/${ADA}?type=solo#issue-title`);
    const form = (await get(done.headers.location as string, MOD)).body;
    expect(form).toMatch(/<option value="solo"\s+selected>/);
    const twice = await post(`/staff/tasks/${solo.id}/close`, { status: 'declined' }, MOD);
    expect(twice.statusCode).toBe(409);
    expect(twice.body).toContain('The task is already completed.');
    const closed = (await get('/staff/tasks', MENTOR)).body;
    expect(closed).toContain('Closed in the last 90 days');
    expect(closed).toContain('Reply: Issued.');
  });

  it('offers a completed rating training’s upgrade task, prefilled', async () => {
    const res = await ctx.request({ method: 'PATCH', url: `/api/trainings/${ada}`, token: edit, payload: { status: -1 } });
    expect(res.statusCode, res.body).toBe(200);
    const page = (await get(`/staff/trainings/${ada}`, MOD)).body;
    const link = `/staff/trainings/${ada}/tasks?type=rating_upgrade&amp;rating=S3`;
    expect(page).toContain(`<a href="${link}">Request the rating upgrade to S3</a>`);
    const form = (await get(link.replace('&amp;', '&'), MOD)).body;
    expect(form).toMatch(/<option value="rating_upgrade"\s+selected>/);
    expect(form).toMatch(/<option value="S3"\s+selected>/);
  });

  it('keeps facilities’ tiers through the API and on the Administrators’ page', async () => {
    const read = await ctx.key('read');
    const list = async () => (await ctx.request({ method: 'GET', url: '/api/facilities', token: read })).json();
    expect(await list()).toEqual({ data: [{ name: 'T1 EKCH TWR', tier: null, description: null }] });
    const put = (name: string, payload: object) =>
      ctx.request({ method: 'PUT', url: `/api/facilities/${encodeURIComponent(name)}`, token: edit, payload });
    const known = await put('T1 EKCH TWR', { tier: 'T1', description: 'Kastrup Tower' });
    expect(known.statusCode).toBe(200);
    const made = await put('T2 EKDK CTR', { tier: 'T2' });
    expect(made.statusCode).toBe(201);
    expect(made.json()).toEqual({ name: 'T2 EKDK CTR', tier: 'T2', description: null });
    expect((await put('T2 EKDK CTR', { tier: null })).json()).toEqual({ name: 'T2 EKDK CTR', tier: null, description: null });
    const bad = await put('X', { tier: 'T3' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.tier).toEqual(['The tier must be T1, T2 or none (null).']);
    expect((await list()).data).toEqual([
      { name: 'T1 EKCH TWR', tier: 'T1', description: 'Kastrup Tower' },
      { name: 'T2 EKDK CTR', tier: null, description: null },
    ]);

    expect((await get('/staff/facilities', MOD)).statusCode).toBe(403);
    expect((await post('/staff/facilities', { name: 'T2 EKDK CTR', tier: 'T2' }, MOD)).statusCode).toBe(403);
    expect((await get('/staff/positions', ADMIN)).body).toContain('href="/staff/facilities"');
    const page = (await get('/staff/facilities', ADMIN)).body;
    expect(page).toContain('<strong>T1 EKCH TWR</strong> · T1 · Kastrup Tower');
    const wrong = await post('/staff/facilities', { name: 'T2 EKDK CTR', tier: 'T9' }, ADMIN);
    expect(wrong.statusCode).toBe(422);
    expect(wrong.body).toContain('id="facility-1-tier-error">The tier must be T1, T2 or none (null).');
    const saved = await post('/staff/facilities', { name: 'T2 EKDK CTR', tier: 'T2', description: 'Copenhagen Control' }, ADMIN);
    expect(saved.statusCode).toBe(303);
    expect((await list()).data[1]).toEqual({ name: 'T2 EKDK CTR', tier: 'T2', description: 'Copenhagen Control' });
  });
});
