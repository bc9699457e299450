// Votes (contract §23) over HTTP on both databases: a division-wide Administrator creates them on
// /staff/votes; members see open votes on /my and /votes and cast one secret ballot each — a second
// is refused by the database (409 "already voted"), also when sent twice at once on PostgreSQL; no
// table, audit entry or event links a member to an option; eligibility is judged at casting; a
// ballot after the closing time is refused; the vote closes by itself once, publishing vote.closed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildUser } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';
import { ADMIN, buildStaffDivision, MENTOR, MOD, PLAIN } from '../../support/staff-division.js';
import { votesClosingWorker } from '../../../src/features/votes/closing.worker.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const CLOSES = Date.UTC(2026, 10, 27, 20);
const VOTERS = Array.from({ length: 12 }, (_, i) => 1100001 + i);

describe('votes', () => {
  let ctx: TestContext;
  const session: Record<number, SignedIn> = {};
  const get = (path: string, cid: number) => ctx.app.inject({ method: 'GET', url: path, headers: { cookie: session[cid]!.cookie } });
  const post = async (path: string, fields: Record<string, string>, cid: number, page = '/my') =>
    postForm(ctx.app, path, { _csrf: csrfOf((await get(page, cid)).body), ...fields }, session[cid]!.cookie);
  const db = () => ctx.services.db.kysely;
  const options = () => db().selectFrom('vote_options').selectAll().orderBy('id').execute();
  const create = (f: Record<string, string>, cid = ADMIN) =>
    post(
      '/staff/votes',
      {
        question: 'Who chairs the division?',
        options: 'Ada\nBo\nCy',
        close_date: '2026-11-27',
        close_time: '20:00',
        eligibility: 'members',
        ...f,
      },
      cid,
      '/staff',
    );

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: SIGN_IN_ENV });
    const voters = VOTERS.map((id) => buildUser({ id, first_name: 'Vera', last_name: `Voter${id}`, rating: 'S2' }));
    const division = buildStaffDivision({ users: voters });
    await ctx.load(division);
    for (const u of division.users.filter((u) => [ADMIN, MOD, MENTOR, PLAIN, ...VOTERS].includes(u.id)))
      session[u.id] = await signIn(ctx.app, ctx.services, u);
    const denmark = await db().selectFrom('areas').select('id').where('name', '=', 'Denmark').executeTakeFirstOrThrow();
    await db().insertInto('user_area_activity').values({ user_id: MENTOR, area_id: denmark.id, active: 1 }).execute();
  });
  afterAll(() => ctx.close());

  it('is created by a division-wide Administrator only, each field checked beside it; edited and deleted before a ballot', async () => {
    expect((await get('/staff/votes', MOD)).statusCode).toBe(403);
    expect((await create({}, MOD)).statusCode).toBe(403);
    expect((await get('/staff', MOD)).body).not.toContain('href="/staff/votes"');
    expect((await get('/staff', ADMIN)).body).toContain('href="/staff/votes"');
    for (const [fields, field, message] of [
      [{ question: '' }, 'question', 'The question must be 1 to 500 characters.'],
      [{ options: 'Only one' }, 'options', 'Give 2 to 10 options, one a line.'],
      [{ options: Array.from({ length: 11 }, (_, i) => `o${i}`).join('\n') }, 'options', 'Give 2 to 10 options, one a line.'],
      [{ options: 'Ada\nada' }, 'options', 'No two options may be the same.'],
      [{ close_date: '2026-11-20', close_time: '11:59' }, 'close_date', 'The closing time must be in the future.'],
      [{ eligibility: 'friends' }, 'eligibility', 'Choose who may vote: members, active, all.'],
    ] as const) {
      const res = await create(fields);
      expect(res.statusCode, field).toBe(422);
      expect(res.body).toContain(`id="vote-new-${field}-error">${message}`);
    }
    expect(await db().selectFrom('votes').selectAll().execute()).toEqual([]);
    expect((await create({ question: 'Scrap me' })).statusCode).toBe(303);
    const [scrap] = await db().selectFrom('votes').selectAll().execute();
    expect(
      (
        await post(
          `/staff/votes/${scrap!.id}`,
          { question: 'Scrapped', options: 'x\ny', close_date: '2026-11-27', close_time: '20:00', eligibility: 'all' },
          ADMIN,
          '/staff',
        )
      ).statusCode,
    ).toBe(303);
    expect((await post(`/staff/votes/${scrap!.id}/delete`, {}, ADMIN, '/staff')).statusCode).toBe(303);
    expect((await create({})).statusCode).toBe(303);
    expect((await create({ question: 'Only for the active', eligibility: 'active', options: 'Yes\nNo' })).statusCode).toBe(303);
    const audit = await ctx.services.audit.read({ target: `vote:${scrap!.id}` });
    expect(audit.map((a: { action: string }) => a.action).sort()).toEqual(['vote.created', 'vote.deleted', 'vote.updated']);
  });

  it('shows open votes to members, takes one secret ballot each, refusing a second (409) and the ineligible (403)', async () => {
    const [chair, active] = await db()
      .selectFrom('votes')
      .selectAll()
      .orderBy('id')
      .execute()
      .then((v) => v.slice(-2));
    const [ada, bo] = (await options()).filter((o) => o.vote_id === chair!.id);
    expect((await get('/my', PLAIN)).body).toContain(`href="/votes/${chair!.id}"`);
    expect((await get('/my', PLAIN)).body).not.toContain(`href="/votes/${active!.id}"`);
    expect((await get('/votes', PLAIN)).body).toContain('Who chairs the division?');
    expect((await get(`/votes/${active!.id}`, PLAIN)).statusCode).toBe(403);
    expect((await post(`/votes/${active!.id}`, { option: '1' }, PLAIN)).statusCode).toBe(403);

    const first = await post(`/votes/${chair!.id}`, { option: String(ada!.id) }, PLAIN);
    expect(first.statusCode).toBe(303);
    const again = await post(`/votes/${chair!.id}`, { option: String(bo!.id) }, PLAIN);
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('You have already voted in this vote.');
    expect((await get('/my', PLAIN)).body).not.toContain(`href="/votes/${chair!.id}"`);
    expect(
      (await post(`/votes/${active!.id}`, { option: String((await options()).find((o) => o.vote_id === active!.id)!.id) }, MENTOR))
        .statusCode,
    ).toBe(303);

    // The same member twice at once: the database takes one.
    const both = await Promise.all([0, 1].map(() => post(`/votes/${chair!.id}`, { option: String(bo!.id) }, MOD)));
    expect(both.map((r) => r.statusCode).sort()).toEqual([303, 409]);
    // Many members at once: every ballot counted.
    const many = await Promise.all(
      VOTERS.map((cid, i) => post(`/votes/${chair!.id}`, { option: String(i % 2 === 0 ? ada!.id : bo!.id) }, cid)),
    );
    expect(many.every((r) => r.statusCode === 303)).toBe(true);
    const counts = (await options()).filter((o) => o.vote_id === chair!.id).map((o) => o.count);
    expect(counts).toEqual([1 + VOTERS.length / 2, 1 + VOTERS.length / 2, 0]);
    expect(
      await db()
        .selectFrom('vote_voters')
        .select((e) => e.fn.countAll<number>().as('n'))
        .where('vote_id', '=', chair!.id)
        .executeTakeFirst(),
    ).toMatchObject({ n: expect.anything() });

    // No edit after the first ballot; turnout for the Administrator while open, no results for members.
    expect((await post(`/staff/votes/${chair!.id}/delete`, {}, ADMIN, '/staff')).statusCode).toBe(409);
    expect((await get(`/votes/${chair!.id}`, ADMIN)).body).toContain(`${2 + VOTERS.length} ballots cast`);
    expect((await get(`/votes/${chair!.id}`, PLAIN)).body).not.toContain('ballots cast');
  });

  it('links no member to an option in any table, audit entry or event', async () => {
    const voters = await db().selectFrom('vote_voters').selectAll().execute();
    expect(Object.keys(voters[0]!).sort()).toEqual(['user_id', 'vote_id', 'voted_on']);
    expect(voters.every((v) => v.voted_on === '2026-11-20')).toBe(true);
    // Every column of the vote tables (a row of each read whole): none names a member beside an option.
    for (const table of ['vote_options', 'votes'] as const) {
      const names = Object.keys((await db().selectFrom(table).selectAll().executeTakeFirst())!);
      expect(
        names.some((n) => /user|voter|cid|member/.test(n)),
        table,
      ).toBe(false);
    }
    const audit = await ctx.services.audit.read({});
    const voterActors = [PLAIN, MOD, MENTOR, ...VOTERS].map((cid) => `member:${cid}`);
    expect(audit.filter((a: { actor: string; action: string }) => voterActors.includes(a.actor) && a.action.includes('vote'))).toEqual([]);
    expect(JSON.stringify(audit)).not.toMatch(/ballot|option_id/);
    expect(await db().selectFrom('events').selectAll().execute()).toEqual([]);
  });

  it('refuses a ballot after the closing time, closes once publishing vote.closed, then shows the results', async () => {
    const [chair] = await db()
      .selectFrom('votes')
      .selectAll()
      .orderBy('id')
      .execute()
      .then((v) => v.slice(-2));
    const [ada] = (await options()).filter((o) => o.vote_id === chair!.id);
    ctx.setNow(CLOSES);
    const late = await post(`/votes/${chair!.id}`, { option: String(ada!.id) }, ADMIN);
    expect(late.statusCode).toBe(409);
    expect(late.body).toContain('This vote has closed.');
    const job = votesClosingWorker(ctx.services);
    const run = () =>
      job.run({
        now: () => CLOSES,
        signal: new AbortController().signal,
        log: { info() {}, warn() {}, error() {} },
        lease: null,
        took() {},
      });
    await Promise.all([run(), run()]);
    await run();
    const events = (await db().selectFrom('events').select('body').where('type', '=', 'vote.closed').execute()).filter(
      (e) => JSON.parse(e.body).data.vote.id === chair!.id,
    );
    expect(events.length).toBe(1);
    expect(JSON.parse(events[0]!.body).data.vote).toMatchObject({
      id: chair!.id,
      ballots: 2 + VOTERS.length,
      counts: [
        { option: 'Ada', count: 7 },
        { option: 'Bo', count: 7 },
        { option: 'Cy', count: 0 },
      ],
    });
    const page = (await get(`/votes/${chair!.id}`, PLAIN)).body;
    expect(page).toContain('<td>Ada</td><td>7</td>');
  });
});
