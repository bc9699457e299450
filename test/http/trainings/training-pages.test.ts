// The student's training pages (contract §18) over HTTP: applying with what the member may train
// for, one open training at a time, "My training" with the place in the queue and the estimate from
// past waits (paused time left out), published reports only, confirming interest, closing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, BO, buildDivision, buildPosition, buildUser, type UserRecord } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';
import { trainingInterestWorker } from '../../../src/features/trainings/interest.worker.js';

const NOW = Date.UTC(2026, 5, 1, 12);
const DAY = 86_400_000;
const MOTIVATION = 'I have flown on the network for three years and want to help the division by controlling.';
const ada = buildUser({ rating: 'S1', email: 'ada@example.org' });
const bo = buildUser({ id: BO, first_name: 'Bo', rating: 'S2' });
const others: UserRecord[] = Array.from({ length: 8 }, (_, i) => buildUser({ id: 1000100 + i, first_name: `U${i}`, rating: 'S1' }));

describe('the student’s training pages', () => {
  let ctx: TestContext;
  let edit: string;
  const session: Record<string, SignedIn> = {};
  const get = (url: string, who = 'ada') => ctx.app.inject({ method: 'GET', url, headers: { cookie: session[who]!.cookie } });
  const api = (method: 'POST' | 'PATCH', url: string, payload: object) => ctx.request({ method, url, token: edit, payload });
  const trainingsOf = async (cid: number) =>
    (await ctx.request({ method: 'GET', url: `/api/trainings?user_id=${cid}`, token: edit })).json().data as Array<{
      id: number;
      status: number;
    }>;

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW - 400 * DAY, env: SIGN_IN_ENV });
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: [ada, bo, ...others],
        positions: [buildPosition('EKCH_TWR', { required_facility: 'T1 EKCH TWR' }), buildPosition('EKCH_DEL'), buildPosition('ESSA_TWR')],
      }),
    );
    edit = await ctx.key('edit');
    // Past waits of the Denmark S2 queue: 10, 20, 30 (+10 paused, not counted) and 40 days, a year ago.
    for (const [i, wait] of [10, 20, 30, 40].entries()) {
      const start = NOW - 400 * DAY + i * 1000;
      ctx.setNow(start);
      const { id } = (await api('POST', '/api/trainings', { user_id: others[i]!.id, area: 'Denmark', ratings: ['S2'] })).json();
      if (wait === 30) {
        ctx.setNow(start + 5 * DAY);
        await api('PATCH', `/api/trainings/${id}`, { paused: true });
        ctx.setNow(start + 15 * DAY);
        await api('PATCH', `/api/trainings/${id}`, { paused: false });
      }
      ctx.setNow(start + (wait + (wait === 30 ? 10 : 0)) * DAY);
      await api('PATCH', `/api/trainings/${id}`, { status: 1 });
    }
    // Two still waiting before Ada.
    for (const i of [4, 5]) {
      ctx.setNow(NOW - (10 - i) * DAY);
      await api('POST', '/api/trainings', { user_id: others[i]!.id, area: 'Denmark', ratings: ['S2'] });
    }
    ctx.setNow(NOW);
    session.ada = await signIn(ctx.app, ctx.services, ada);
    session.bo = await signIn(ctx.app, ctx.services, bo);
  }, 60_000);
  afterAll(() => ctx.close());

  it('sends a signed-out visitor to sign in', async () => {
    for (const url of ['/my/training', '/training/apply']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/auth/login?next=${encodeURIComponent(url)}`);
    }
  });

  it('offers the next rating and the facility endorsements at or below the member’s rating they do not hold', async () => {
    const adaForm = (await get('/training/apply')).body;
    expect([...adaForm.matchAll(/name="ratings" value="([^"]+)"/g)].map((m) => m[1])).toEqual(['S2']);
    const boForm = (await get('/training/apply', 'bo')).body;
    expect([...boForm.matchAll(/name="ratings" value="([^"]+)"/g)].map((m) => m[1])).toEqual(['S3', 'T1 EKCH TWR']);
  });

  it('shows the form again with the message beside the field for a short motivation, and creates nothing', async () => {
    const form = (await get('/training/apply')).body;
    const res = await postForm(
      ctx.app,
      '/training/apply',
      { _csrf: csrfOf(form), area: 'Denmark', ratings: 'S2', motivation: 'Too short', experience: '1' },
      session.ada!.cookie,
    );
    expect(res.statusCode).toBe(422);
    expect(res.body).toMatch(/<textarea id="motivation"[^>]*aria-invalid="true"[^>]*>Too short<\/textarea>/);
    expect(res.body).toContain('id="motivation-error">Write a motivation of 50 to 1500 characters (now 9).');
    expect(await trainingsOf(ADA)).toEqual([]);
  });

  it('refuses a form without the session’s CSRF token and changes nothing', async () => {
    const res = await postForm(
      ctx.app,
      '/training/apply',
      { area: 'Denmark', ratings: 'S2', motivation: MOTIVATION, experience: '1' },
      session.ada!.cookie,
    );
    expect(res.statusCode).toBe(403);
    expect(await trainingsOf(ADA)).toEqual([]);
  });

  it('applies, then shows the place in the queue and the estimate from past waits (paused time left out)', async () => {
    const form = (await get('/training/apply')).body;
    const res = await postForm(
      ctx.app,
      '/training/apply',
      { _csrf: csrfOf(form), area: 'Denmark', ratings: 'S2', motivation: MOTIVATION, experience: '2', english_only: 'on' },
      session.ada!.cookie,
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/my/training?done=applied');
    const [t] = await trainingsOf(ADA);
    expect(t).toMatchObject({ status: 0, english_only: true, experience: 2, motivation: MOTIVATION, type: 'Standard' });
    const page = (await get('/my/training?done=applied')).body;
    expect(page).toContain('Your application is in the queue.');
    expect(page).toContain('You are <strong>3rd of 3</strong> in the queue for S2 in Denmark.');
    // Waits 10, 20, 30, 40 days: the upper half, 30 to 40.
    expect(page).toContain('in the last two years: 30 days to 40 days.');
  });

  it('refuses a second open training with 409 and a link to the open one', async () => {
    const res = await get('/training/apply');
    expect(res.statusCode).toBe(409);
    expect(res.body).toContain('href="/my/training"');
    // The page in the members' header and footer, as the page the member came from.
    expect(res.body).toContain(`Signed in as <strong>Ada Lind</strong> (${ADA})`);
    expect(res.body).toContain('<form method="post" action="/auth/logout"');
    expect(res.body).toMatch(/<footer>[\s\S]*href="\/my\/bookings"/);
  });

  it('shows published reports only, and says "not enough data" for a queue without four past waits', async () => {
    const [t] = await trainingsOf(ADA);
    await api('POST', `/api/trainings/${t!.id}/reports`, { report_date: '2026-06-01', content: 'Secret draft', draft: true });
    await api('POST', `/api/trainings/${t!.id}/reports`, { report_date: '2026-06-01', content: 'Line one\nLine <two>' });
    const page = (await get('/my/training')).body;
    expect(page).not.toContain('Secret draft');
    expect(page).toContain('Line one\nLine &lt;two&gt;');

    const bo2 = (await get('/training/apply', 'bo')).body;
    await postForm(
      ctx.app,
      '/training/apply',
      { _csrf: csrfOf(bo2), area: 'Sweden', ratings: 'S3', motivation: MOTIVATION, experience: '1' },
      session.bo!.cookie,
    );
    expect((await get('/my/training', 'bo')).body).toContain('1st of 1</strong>');
    expect((await get('/my/training', 'bo')).body).toContain('not enough data yet');
  });

  it('confirms interest when asked, and closes the request (-3) on the student’s own action', async () => {
    ctx.setNow(NOW + 31 * DAY);
    // One run of the continued-interest job (its schedule is tested on fake time in test/system/trainings/).
    await trainingInterestWorker(ctx.services).run({} as never);
    ctx.setNow(NOW); // the session would have expired a month on
    const [t] = await trainingsOf(ADA);
    let page = (await get('/my/training')).body;
    expect(page).toContain('Do you still want this training?');
    const token = csrfOf(page);
    const confirmed = await postForm(ctx.app, '/my/training/interest', { _csrf: token }, session.ada!.cookie);
    expect(confirmed.headers.location).toBe('/my/training?done=confirmed');
    expect((await get('/my/training')).body).not.toContain('Do you still want this training?');
    const closed = await postForm(ctx.app, '/my/training/close', { _csrf: token }, session.ada!.cookie);
    expect(closed.statusCode).toBe(303);
    expect((await trainingsOf(ADA)).find((x) => x.id === t!.id)).toMatchObject({ status: -3, status_description: 'Closed by student' });
    page = (await get('/my/training?done=closed')).body;
    expect(page).toContain('Your training request is closed.');
    expect(page).toContain('href="/training/apply"');
    expect((await postForm(ctx.app, '/my/training/close', { _csrf: token }, session.ada!.cookie)).statusCode).toBe(404);
  });

  it('lets one of ten applications sent at once through: one open training per member', async () => {
    const who = others[6]!;
    session.six = await signIn(ctx.app, ctx.services, who);
    const token = csrfOf((await get('/training/apply', 'six')).body);
    // Half to each area: only the one-open-training rule (not the natural key) can refuse the second.
    const fields = (i: number) => ({
      _csrf: token,
      area: i % 2 ? 'Sweden' : 'Denmark',
      ratings: 'S2',
      motivation: MOTIVATION,
      experience: '1',
    });
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => postForm(ctx.app, '/training/apply', fields(i), session.six!.cookie)),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([303, ...Array(9).fill(409)]);
    expect(await trainingsOf(who.id)).toHaveLength(1);
  });
});
