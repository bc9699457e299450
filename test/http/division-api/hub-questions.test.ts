// What Sector asks the division's hub live (contract §22), through the app against the hub's
// stand-in: issuing a solo (API and the person page's form) needs the student's pass of the theory
// exam of their training's highest rating (422 naming it otherwise, 502 naming the hub's host when
// it cannot be asked, nothing stored either way); the person page shows exam results and
// assignments, a line when the hub cannot be reached, and nothing without a hub.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { tableRows } from '../../support/db-state.js';
import { startHubStandIn, type HubStandIn, hubEnv } from '../../support/division-hub-stand-in.js';
import { ADA, BO, buildDivision, buildPosition, buildTraining, buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';

const CY = 1000003;
const DAN = 1000004;
const EVA = 1000005;
const T0 = Date.parse('2026-06-01T12:00:00Z');
const cli = { kind: 'cli' } as const;
const STORED = ['endorsements', 'endorsement_positions', 'events', 'audit_log', 'mail_outbox'] as const;

const DIVISION = buildDivision({
  users: [
    buildUser(),
    buildUser({ id: BO, first_name: 'Bo', rating: 'S1' }),
    buildUser({ id: CY, first_name: 'Cy', rating: 'S2' }),
    buildUser({ id: DAN, first_name: 'Dan', rating: 'OBS' }),
    buildUser({ id: EVA, first_name: 'Eva', rating: 'S1' }),
  ],
  positions: [buildPosition('EKCH_TWR'), buildPosition('EKCH_APP'), buildPosition('EKCH_DEL')],
  trainings: [
    buildTraining({ user_id: BO, status: 2, ratings: ['S2'] }),
    buildTraining({ user_id: CY, status: 1, ratings: ['S2', 'S3'] }),
    buildTraining({ user_id: DAN, status: 2, ratings: ['S1'] }),
  ],
});

/** The app with a database of the division, Ada a division-wide Administrator signed in; hub env as given. */
async function started(env: Record<string, string>) {
  const ctx = await createTestContext({ now: T0, env: { ...env, ...SIGN_IN_ENV } });
  await ctx.load(DIVISION);
  await ctx.services.roles.grant(ADA, 'Administrator', null, cli);
  const key = await ctx.key('edit');
  const [user] = await ctx.services.db.kysely.selectFrom('users').selectAll().where('id', '=', ADA).execute();
  const ada = await signIn(ctx.app, ctx.services, { ...user!, rating: 'C1' } as never);
  return { ctx, key, ada };
}

const solo = (user_id: number, position = 'EKCH_TWR') => ({
  user_id,
  type: 'solo',
  positions: [position],
  valid_to: '2026-06-10T23:59:00Z',
});

describe("the division's hub asked live", () => {
  let ctx: TestContext;
  let hub: HubStandIn;
  let key: string;
  let ada: SignedIn;

  const issue = (body: object) => ctx.request({ method: 'POST', url: '/api/endorsements', token: key, payload: body });
  const stored = () => tableRows(ctx.databaseUrl, STORED);
  const personPage = async (cid: number) => ctx.app.inject({ method: 'GET', url: `/staff/users/${cid}`, headers: { cookie: ada.cookie } });
  const issueForm = async (cid: number, fields: Record<string, string>) => {
    const csrf = csrfOf((await personPage(cid)).body);
    return postForm(ctx.app, `/staff/users/${cid}/endorsements`, { _csrf: csrf, ...fields }, ada.cookie);
  };
  const examsAsked = (cid: number) => hub.requests.filter((r) => r.method === 'GET' && r.path === `/facility/user/${cid}/exams`).length;

  beforeAll(async () => {
    hub = await startHubStandIn();
    ({ ctx, key, ada } = await started({
      ...hubEnv(hub),
      // The question's 5 s, shortened so that a hub that never answers takes a moment here.
      DIVISION_API_QUESTION_TIMEOUT_MS: '300',
    }));
  });
  afterAll(async () => {
    await ctx.close();
    await hub.close();
  });

  it('refuses a solo with 422 naming the exam when the student has not passed it, a fail or an expired pass, storing nothing', async () => {
    const before = await stored();
    const none = await issue(solo(BO));
    expect(none.statusCode, none.body).toBe(422);
    const message = `User ${BO} has not passed the S2 theory exam on the hub, which a solo in a training for S2 needs.`;
    expect(none.json()).toEqual({ message, errors: { positions: [message] } });
    expect(examsAsked(BO)).toBe(1);

    hub.results.push({ user_cid: BO, exam_id: 11, flag_exam_type: 2, passed: false, expiry: null });
    hub.results.push({ user_cid: BO, exam_id: 11, flag_exam_type: 2, passed: true, expiry: '2026-05-31 23:59:59' });
    // Another rating's pass does not count.
    hub.results.push({ user_cid: BO, exam_id: 12, flag_exam_type: 3, passed: true, expiry: null });
    const failed = await issue(solo(BO));
    expect(failed.statusCode, failed.body).toBe(422);
    expect(failed.json().message).toBe(message);
    expect(await stored()).toEqual(before);
  });

  it("answers 502 naming the hub's host when it cannot be asked (unreachable, 5xx, not JSON, no answer in time), storing nothing", async () => {
    const host = new URL(hub.url).host;
    const before = await stored();
    for (const [mode, why] of [
      // A kept-alive connection the hub dropped is reset, and asked again: refused.
      ['unreachable', 'connection refused'],
      ['fail', 'HTTP 500'],
      ['garbage', 'an answer that is not JSON'],
      ['hang', 'no response within 300 ms'],
    ] as const) {
      hub.mode = mode;
      const started = Date.now();
      const res = await issue(solo(BO)).finally(() => (hub.mode = 'up'));
      expect(res.statusCode, `${mode}: ${res.body}`).toBe(502);
      expect(res.json().message).toMatch(
        new RegExp(`^The division's hub could not be asked whether user ${BO} passed the S2 theory exam \\(${host}: ${why}`),
      );
      expect(Date.now() - started).toBeLessThan(3000);
    }
    expect(await stored()).toEqual(before);
  });

  it("asks outside any transaction: a change to the same member goes through while the hub's answer is awaited", async () => {
    hub.mode = 'hang';
    let soloAnswered = false;
    const waiting = issue(solo(BO)).then((res) => {
      soloAnswered = true;
      return res;
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = await issue({ user_id: BO, type: 'visiting', rating: 'S2', areas: ['Denmark'] });
    expect(other.statusCode, other.body).toBe(201);
    // Done while the solo still waited for the hub: no lock on the member was held across the question.
    expect(soloAnswered).toBe(false);
    const res = await waiting.finally(() => (hub.mode = 'up'));
    expect(res.statusCode).toBe(502);
  });

  it('issues the solo once the hub says the student passed, a fast-track pass counting too', async () => {
    hub.results.push({ user_cid: BO, exam_id: 11, flag_exam_type: 2, passed: true, expiry: '2027-06-01 00:00:00' });
    const ok = await issue(solo(BO));
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ user_id: BO, type: 'solo', positions: ['EKCH_TWR'] });

    // Cy's training is for S2 and S3: its highest, S3, is asked (flag 3, or 9 for its fast track).
    hub.results.push({ user_cid: CY, exam_id: 11, flag_exam_type: 2, passed: true, expiry: null });
    const s2only = await issue(solo(CY, 'EKCH_APP'));
    expect(s2only.statusCode, s2only.body).toBe(422);
    expect(s2only.json().message).toContain('has not passed the S3 theory exam on the hub');
    hub.results.push({ user_cid: CY, exam_id: 19, flag_exam_type: 9, passed: true, expiry: null });
    const fast = await issue(solo(CY, 'EKCH_APP'));
    expect(fast.statusCode, fast.body).toBe(201);
  });

  it('asks nothing for a training without a theory exam on the hub, or without an open training (the rules refuse that)', async () => {
    const asked = hub.requests.length;
    const s1 = await issue(solo(DAN, 'EKCH_DEL'));
    expect(s1.statusCode, s1.body).toBe(201);
    const untrained = await issue(solo(EVA));
    expect(untrained.statusCode, untrained.body).toBe(422);
    expect(untrained.json().errors).toEqual({
      positions: ['A solo on EKCH_TWR needs an open training in Denmark (pre-training or later).'],
    });
    expect(hub.requests.length).toBe(asked);
  });

  it("shows the refusal beside the form's field, the hub's failure above the form (502), nothing stored either way", async () => {
    const form = { type: 'solo', positions: 'EKCH_TWR', valid_to: '2026-06-10' };
    const refused = await issueForm(EVA, form);
    expect(refused.statusCode).toBe(422); // no training: the rules', beside the field

    hub.results.length = 0;
    // Revoked, then issued a minute later: a solo may not start at the instant another did.
    await ctx.request({ method: 'DELETE', url: `/api/endorsements/${(await soloOf(BO)).id}`, token: key });
    ctx.setNow(T0 + 60_000);
    const afterRevoke = await stored();
    const notPassed = await issueForm(BO, form);
    expect(notPassed.statusCode).toBe(422);
    expect(notPassed.body).toContain(
      `<p class="error" id="issue-positions-error">User ${BO} has not passed the S2 theory exam on the hub, which a solo in a training for S2 needs.</p>`,
    );
    expect(notPassed.body).toMatch(/id="issue-positions"[^>]*aria-describedby="issue-positions-error" aria-invalid="true"/);

    hub.mode = 'unreachable';
    const down = await issueForm(BO, form);
    hub.mode = 'up';
    expect(down.statusCode).toBe(502);
    expect(down.body).toMatch(/id="issue-problem">\s*Nothing was changed: The division&#39;s hub could not be asked whether user 1000002/);
    expect(down.body).toContain(new URL(hub.url).host);
    expect(down.body).toContain('id="hub-exams-unreachable"');
    expect(await stored()).toEqual(afterRevoke);

    hub.results.push({ user_cid: BO, exam_id: 18, flag_exam_type: 8, passed: true, expiry: null });
    const ok = await issueForm(BO, form);
    expect(ok.statusCode, ok.body).toBe(303);
    expect(ok.headers.location).toBe(`/staff/users/${BO}?done=issued`);
  });

  it("shows the member's exam results and assignments by name on the person page, or a line when the hub cannot be reached", async () => {
    hub.results.push({ user_cid: BO, exam_id: 12, flag_exam_type: 3, passed: false, expiry: '2026-09-01 00:00:00' });
    hub.results.push({ user_cid: BO, exam_id: 11, flag_exam_type: 2, passed: true, expiry: '2026-01-01 00:00:00' });
    hub.assignments.push({ user_cid: BO, exam_id: 13, instructor_cid: ADA, created_at: '2026-05-20 10:00:00' });
    const page = await personPage(BO);
    expect(page.statusCode).toBe(200);
    const section = /<section aria-labelledby="hub-exams-title">[\s\S]*?<\/section>/.exec(page.body)?.[0] ?? '';
    expect(section).toContain("Theory exams on the division's hub");
    expect(section).toContain('<strong>S2 fast track</strong>: passed</p>');
    expect(section).toContain('<strong>S3 theory</strong>: failed</p>');
    expect(section).toContain('<strong>S2 theory</strong>: passed, expired 2026-01-01</p>');
    expect(section).toContain('<strong>C1 theory</strong>, assigned 2026-05-20</p>');
    expect(section).not.toContain('exam_id');

    const quiet = await personPage(DAN);
    expect(quiet.body).toContain('No exam results on the hub.');
    expect(quiet.body).toContain('No exams assigned on the hub.');

    for (const mode of ['unreachable', 'hang', 'fail'] as const) {
      hub.mode = mode;
      const down = await personPage(BO);
      expect(down.statusCode, mode).toBe(200);
      expect(down.body).toContain(
        `<p class="hint" id="hub-exams-unreachable">The division's hub (${new URL(hub.url).host}) could not be reached, so its exam results are not shown; reload to try again.</p>`,
      );
      expect(down.body).toContain('id="endorsements-title"');
    }
    hub.mode = 'up';
  });

  async function soloOf(cid: number): Promise<{ id: number }> {
    const res = await ctx.request({ method: 'GET', url: `/api/endorsements?user_id=${cid}&type=solo&active=true`, token: key });
    return (res.json() as { data: Array<{ id: number }> }).data[0]!;
  }
});

describe('without a hub', () => {
  let ctx: TestContext;
  let key: string;
  let ada: SignedIn;

  beforeAll(async () => {
    ({ ctx, key, ada } = await started({}));
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('issues a solo without asking, and the person page has no hub section', async () => {
    const res = await ctx.request({ method: 'POST', url: '/api/endorsements', token: key, payload: solo(BO) });
    expect(res.statusCode, res.body).toBe(201);
    const page = await ctx.app.inject({ method: 'GET', url: `/staff/users/${BO}`, headers: { cookie: ada.cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('id="trainings-title"');
    expect(page.body).not.toContain('hub-exams');
    expect(page.body).not.toContain("Theory exams on the division's hub");
  });
});
