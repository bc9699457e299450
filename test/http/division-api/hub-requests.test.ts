// Requests to the division's hub (contract §22) through the app against the hub's stand-in: what
// each change sends, back-off while the hub fails, refusal holding back, retry and dismiss.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { startHubStandIn, type HubStandIn, hubEnv } from '../../support/division-hub-stand-in.js';
import { ADA, BO, buildDivision, buildPosition, buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn } from '../../support/members.js';

const CY = 1000003;
const DAN = 1000004;
const T0 = Date.parse('2026-06-01T12:00:00Z');
const cli = { kind: 'cli' } as const;

describe("the division's hub", () => {
  let ctx: TestContext;
  let hub: HubStandIn;
  let key: string;
  let now = T0;

  const drain = async () => {
    const signal = new AbortController().signal;
    for (let i = 0; i < 100; i++) if (!(await ctx.services.divisionApi!.run({ now: () => now, signal }))) return;
  };
  /** The hub's figures on /metrics. */
  const figures = async () => {
    const text = (await ctx.app.inject({ method: 'GET', url: '/metrics' })).body;
    const sample = (name: string) => Number(new RegExp(`^${name.replace(/[{}]/g, '\\$&')} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
    return {
      pending: sample('sector_division_pending'),
      sent: sample('sector_division_requests_total{result="sent"}'),
      refused: sample('sector_division_requests_total{result="refused"}'),
    };
  };
  const endorse = async (body: object) => {
    const res = await ctx.request({ method: 'POST', url: '/api/endorsements', token: key, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { id: number }).id;
  };

  beforeAll(async () => {
    hub = await startHubStandIn();
    ctx = await createTestContext({
      now: T0,
      env: {
        ...hubEnv(hub),
        DIVISION_API_RETRY_BASE_MS: '1000',
        DIVISION_API_TIMEOUT_MS: '500',
        ...SIGN_IN_ENV,
      },
    });
    await ctx.load(
      buildDivision({
        users: [
          buildUser(),
          buildUser({ id: BO, first_name: 'Bo', rating: 'S2' }),
          buildUser({ id: CY, first_name: 'Cy', rating: 'S3' }),
          buildUser({ id: DAN, first_name: 'Dan', rating: 'S2' }),
        ],
        positions: [buildPosition('EKCH_TWR', { required_facility: 'EKCH TWR' })],
      }),
    );
    key = await ctx.key('edit');
    await drain(); // the hub starts from here: the import sent nothing
    await ctx.services.roles.grant(ADA, 'Administrator', null, cli);
    const tier = await ctx.request({ method: 'PUT', url: '/api/facilities/EKCH%20TWR', token: key, payload: { tier: 'T1' } });
    expect(tier.statusCode, tier.body).toBe(200);
  });
  afterAll(async () => {
    await ctx.close();
    await hub.close();
  });

  it('sends mentors, examiners and tier endorsements once each, acting as the lowest division-wide Administrator', async () => {
    await ctx.services.roles.grant(BO, 'Mentor', 'Denmark', cli);
    await endorse({ user_id: CY, type: 'examiner', rating: 'S2', areas: ['Denmark'] });
    await endorse({ user_id: BO, type: 'examiner', rating: 'S2', areas: ['Denmark'] });
    const t1 = await endorse({ user_id: BO, type: 'facility', rating: 'EKCH TWR' });
    await drain();
    expect(hub.requests.filter((r) => r.method === 'POST').map((r) => [r.path, r.body])).toEqual([
      ['/facility/training/assign/1000002/mentor', { user_cid: ADA }],
      ['/facility/training/assign/1000003/examiner', { user_cid: ADA }],
      ['/facility/endorsements/tier-1', { user_cid: BO, position: 'EKCH TWR', instructor_cid: ADA }],
    ]);
    expect([...hub.mentors]).toEqual([BO]);
    expect(hub.tiers[1]).toMatchObject([{ user_cid: BO, position: 'EKCH TWR' }]);

    // Revoking: found by user_cid and position, deleted by id; the last Mentor role: one remove.
    await endorse({ user_id: CY, type: 'facility', rating: 'EKCH TWR' });
    await ctx.request({ method: 'DELETE', url: `/api/endorsements/${t1}`, token: key });
    await ctx.services.roles.revoke(BO, 'Mentor', 'Denmark', cli);
    await drain();
    expect(hub.tiers[1]).toMatchObject([{ user_cid: CY }]);
    expect(hub.mentors.size).toBe(0);
    expect(hub.requests.filter((r) => r.method === 'DELETE').map((r) => r.path)).toEqual(['/facility/endorsements/tier-1/100']);
    expect((await ctx.services.divisionApi!.status()).pending).toEqual([]);
  });

  it('waits with back-off while the hub fails, then sends each request once, in order', async () => {
    hub.mode = 'fail';
    const before = hub.requests.length;
    await ctx.services.roles.grant(BO, 'Mentor', 'Denmark', cli);
    await ctx.services.roles.revoke(BO, 'Mentor', 'Denmark', cli);
    await drain();
    let { pending } = await ctx.services.divisionApi!.status();
    expect(pending.map((p) => [p.path, p.attempts])).toEqual([
      ['/facility/training/assign/1000002/mentor', 1],
      ['/facility/training/remove/1000002/mentor', 0],
    ]);
    now += 999; // not yet due: the base is 1 s
    await drain();
    expect((await ctx.services.divisionApi!.status()).pending[0]!.attempts).toBe(1);
    now += 1; // due: fails again, next in 2 s
    await drain();
    expect((await ctx.services.divisionApi!.status()).pending[0]!.attempts).toBe(2);
    hub.mode = 'up';
    now += 2000;
    await drain();
    expect(hub.requests.slice(before).map((r) => r.path)).toEqual([
      '/facility/training/assign/1000002/mentor',
      '/facility/training/remove/1000002/mentor',
    ]);
    ({ pending } = await ctx.services.divisionApi!.status());
    expect(pending).toEqual([]);
  });

  it("keeps a refused request with the hub's message, holding back later ones about the same thing, until retried", async () => {
    hub.mode = 'refuse';
    hub.refuseMessage = 'User is not a member of the division.';
    await ctx.services.roles.grant(BO, 'Mentor', 'Denmark', cli);
    await drain();
    hub.mode = 'up';
    await ctx.services.roles.revoke(BO, 'Mentor', 'Denmark', cli);
    await drain();
    const { pending, refused } = await ctx.services.divisionApi!.status();
    expect(refused).toMatchObject([{ path: '/facility/training/assign/1000002/mentor', error: 'User is not a member of the division.' }]);
    expect(pending).toMatchObject([{ path: '/facility/training/remove/1000002/mentor', attempts: 0 }]);
    expect(hub.mentors.size).toBe(0);
    // On /metrics: one request waiting (the refused one waits for an operator, not counted), one refusal counted.
    const before = await figures();
    expect(before.pending).toBe(1);
    await ctx.services.divisionApi!.retry(refused[0]!.id);
    await drain();
    expect(await ctx.services.divisionApi!.status()).toEqual({ pending: [], refused: [] });
    const after = await figures();
    expect(after.pending).toBe(0);
    expect(after.sent - before.sent).toBe(2);
    expect(after.refused).toBe(before.refused);
    expect(before.refused).toBeGreaterThanOrEqual(1);
    expect(hub.requests.slice(-2).map((r) => r.path)).toEqual([
      '/facility/training/assign/1000002/mentor',
      '/facility/training/remove/1000002/mentor',
    ]);
  });

  it('matches a create whose outcome was unknown against the hub list before sending it again', async () => {
    hub.actThenHang = true;
    await endorse({ user_id: ADA, type: 'facility', rating: 'EKCH TWR' });
    await drain();
    hub.actThenHang = false;
    expect(hub.tiers[1].filter((r) => r.user_cid === ADA)).toHaveLength(1);
    now += 60_000;
    await drain();
    expect(hub.tiers[1].filter((r) => r.user_cid === ADA)).toHaveLength(1);
    expect((await ctx.services.divisionApi!.status()).pending).toEqual([]);
  });

  it('shows a task\'s refused request on the tasks page with "Send again" for its assignee, which sends it again', async () => {
    await ctx.services.roles.grant(CY, 'Moderator', 'Denmark', cli);
    const training = await ctx.services.trainings.create({ user_id: BO, area: 'Denmark', ratings: ['S3'], status: 2 }, cli);
    await drain();
    const made = await ctx.request({
      method: 'POST',
      url: '/api/tasks',
      token: key,
      payload: { type: 'rating_upgrade', subject_user_id: BO, training_id: training.id, rating: 'S3', assignee_id: ADA, creator_id: CY },
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = (made.json() as { id: number }).id;
    hub.mode = 'refuse';
    hub.refuseMessage = 'The user is not in the division.';
    const closed = await ctx.request({
      method: 'PATCH',
      url: `/api/tasks/${id}`,
      token: key,
      payload: { status: 'completed', actor_id: ADA },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    await drain();
    const users = await ctx.services.db.kysely.selectFrom('users').selectAll().where('id', 'in', [ADA, CY]).orderBy('id').execute();
    const [ada, cy] = await Promise.all(users.map((u) => signIn(ctx.app, ctx.services, { ...u, rating: 'C1' } as never)));
    const page = async (who: { cookie: string }) =>
      (await ctx.app.inject({ method: 'GET', url: '/staff/tasks', headers: { cookie: who.cookie } })).body;
    const shown = await page(ada!);
    expect(shown).toContain(`id="task-${id}-hub">The division's hub refused it: The user is not in the division.</p>`);
    expect(shown).toContain(`action="/staff/tasks/${id}/hub-retry"`);

    hub.mode = 'up';
    const again = await postForm(ctx.app, `/staff/tasks/${id}/hub-retry`, { _csrf: csrfOf(shown) }, ada!.cookie);
    expect(again.statusCode, again.body).toBe(303);
    expect(again.headers.location).toBe(`/staff/tasks?done=retried#task-${id}`);
    await drain();
    expect(await page(ada!)).toContain("Sent to the division's hub.");
    expect(hub.requests.at(-1)!.path).toBe(`/facility/user/${BO}/upgrade`);
    // Nothing refused any more: a second "Send again" (an old page) is 409 with the reason on the item.
    const stale = await postForm(ctx.app, `/staff/tasks/${id}/hub-retry`, { _csrf: csrfOf(await page(cy!)) }, cy!.cookie);
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain('has refused nothing of this task');
  });

  it('shows an endorsement\'s refused request on the person\'s staff page with "Send again", which sends it again', async () => {
    hub.mode = 'refuse';
    hub.refuseMessage = 'Position EKCH TWR is unknown to the hub.';
    const id = await endorse({ user_id: DAN, type: 'facility', rating: 'EKCH TWR' });
    await drain();
    const users = await ctx.services.db.kysely.selectFrom('users').selectAll().where('id', '=', ADA).execute();
    const ada = await signIn(ctx.app, ctx.services, { ...users[0]!, rating: 'C1' } as never);
    const page = async () => (await ctx.app.inject({ method: 'GET', url: `/staff/users/${DAN}`, headers: { cookie: ada.cookie } })).body;
    const shown = await page();
    expect(shown).toContain(
      `id="endorsement-${id}-hub">The division's hub refused a request about it: Position EKCH TWR is unknown to the hub.</p>`,
    );
    expect(shown).toContain(`action="/staff/endorsements/${id}/hub-retry"`);

    hub.mode = 'up';
    const again = await postForm(ctx.app, `/staff/endorsements/${id}/hub-retry`, { _csrf: csrfOf(shown) }, ada.cookie);
    expect(again.statusCode, again.body).toBe(303);
    expect(again.headers.location).toBe(`/staff/users/${DAN}?done=hub-retried`);
    await drain();
    expect(hub.requests.at(-1)).toMatchObject({ method: 'POST', path: '/facility/endorsements/tier-1' });
    const after = await page();
    expect(after).not.toContain(`id="endorsement-${id}-hub"`);
    // Nothing refused any more: an old page's "Send again" is 409, said at the top of the page.
    const stale = await postForm(ctx.app, `/staff/endorsements/${id}/hub-retry`, { _csrf: csrfOf(after) }, ada.cookie);
    expect(stale.statusCode).toBe(409);
    expect(stale.body).toContain('has refused nothing about this');
  });

  it("names the member who granted or revoked a Mentor role as the request's user_cid", async () => {
    hub.mode = 'up';
    await ctx.services.roles.grant(CY, 'Administrator', null, cli);
    const cy = { kind: 'member', cid: CY, name: 'Cy Lind' } as const;
    const before = hub.requests.length;
    await ctx.services.roles.grant(DAN, 'Mentor', 'Denmark', cy);
    await ctx.services.roles.revoke(DAN, 'Mentor', 'Denmark', cy);
    await drain();
    expect(hub.requests.slice(before).map((r) => [r.path, r.body])).toEqual([
      [`/facility/training/assign/${DAN}/mentor`, { user_cid: CY }],
      [`/facility/training/remove/${DAN}/mentor`, { user_cid: CY }],
    ]);
  });

  it('sends a completed rating upgrade as the rating number, a completed theory exam as the exam of the rating minus one', async () => {
    hub.mode = 'up';
    const training = await ctx.services.trainings.create({ user_id: DAN, area: 'Denmark', ratings: ['S3'], status: 2 }, cli);
    const complete = async (type: string) => {
      const made = await ctx.request({
        method: 'POST',
        url: '/api/tasks',
        token: key,
        payload: { type, subject_user_id: DAN, training_id: training.id, rating: 'S3', assignee_id: ADA, creator_id: CY },
      });
      expect(made.statusCode, made.body).toBe(201);
      const id = (made.json() as { id: number }).id;
      const done = await ctx.request({
        method: 'PATCH',
        url: `/api/tasks/${id}`,
        token: key,
        payload: { status: 'completed', actor_id: ADA },
      });
      expect(done.statusCode, done.body).toBe(200);
    };
    await drain();
    const before = hub.requests.length;
    await complete('rating_upgrade');
    await complete('theory_exam');
    await drain();
    expect(hub.requests.slice(before).map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', `/facility/user/${DAN}/upgrade`, { new_rating: 4, instructor_cid: ADA }],
      ['GET', '/facility/training/exams', {}],
      ['POST', '/facility/training/exams/assign', { user_cid: DAN, exam_id: 12, instructor_cid: ADA }],
    ]);
    expect(hub.upgrades).toContainEqual({ cid: DAN, new_rating: 4, instructor_cid: ADA });
  });
});
