// The member's settings and data (contract §24) over HTTP on both databases: each kind of mail on
// or off (feedback off by default), the look kept in the database and honoured by every page without
// script, a refused form shown again; /my/data holds every kind of row about the member and nothing
// about another member seeded the same way.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildBooking, buildDivision, buildEndorsement, buildPosition, buildRole, buildUser } from '../../support/factories.js';
import { csrfOf, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';

const NOW = Date.UTC(2026, 5, 1, 12);
const ANA = 1000061;
const BEN = 1000062;
const ADMIN = 1000063;
const people = [
  buildUser({ id: ANA, first_name: 'Ana', last_name: 'Andersen', rating: 'S2', email: 'ana@example.org' }),
  buildUser({ id: BEN, first_name: 'Benedikt', last_name: 'Berg', rating: 'S2', email: 'benedikt@example.org' }),
];
const admin = buildUser({ id: ADMIN, first_name: 'Ines', last_name: 'Ibsen', rating: 'C1' });

describe('the member settings and data (contract §24)', () => {
  let ctx: TestContext;
  const s: Record<number, SignedIn> = {};
  const get = (url: string, cid: number) => ctx.app.inject({ method: 'GET', url, headers: { cookie: s[cid]!.cookie } });
  const post = (cid: number, token: string, fields: Array<[string, string]>) =>
    ctx.app.inject({
      method: 'POST',
      url: '/my/settings',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: s[cid]!.cookie },
      payload: new URLSearchParams([...fields, ['_csrf', token]]).toString(),
    });

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: SIGN_IN_ENV });
    await ctx.load(
      buildDivision({
        areas: ['Denmark'],
        users: [...people, admin],
        positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_TWR')],
        roles: [
          buildRole({ user_id: ANA, area: 'Denmark', role: 'Mentor' }),
          buildRole({ user_id: BEN, area: 'Denmark', role: 'Mentor' }),
          buildRole({ user_id: ADMIN, area: null, role: 'Administrator' }),
        ],
        endorsements: [
          buildEndorsement({ user_id: ANA, type: 'visiting', rating: 'S2', areas: ['Denmark'] }),
          buildEndorsement({ user_id: BEN, type: 'visiting', rating: 'S3', areas: ['Denmark'] }),
        ],
        bookings: [buildBooking({ user_id: ANA, callsign: 'EKCH_DEL' }), buildBooking({ user_id: BEN, callsign: 'EKCH_TWR' })],
      }),
    );
    const cli = { kind: 'cli' } as const;
    await ctx.services.trainings.create({ user_id: ANA, area: 'Denmark', ratings: ['S3'], motivation: 'Ana wants S3 '.repeat(5) }, cli);
    await ctx.services.trainings.create(
      { user_id: BEN, area: 'Denmark', ratings: ['C1'], motivation: 'Benedikt wants C1 '.repeat(5) },
      cli,
    );
    // What else they wrote or took part in: feedback, a sweatbox session, a ballot, a task about them.
    const ines = { kind: 'member', cid: ADMIN, name: 'Ines Ibsen' } as const;
    const vote = await ctx.services.votes.create(
      {
        question: 'Which event first?',
        options: 'Cross the pond\nFly-in',
        close_date: '2026-07-01',
        close_time: '12:00',
        eligibility: 'all',
      },
      ines,
    );
    const [first] = (await ctx.services.votes.one(vote, ANA))!.options;
    for (const [u, callsign, start] of [
      [people[0]!, 'EKCH_DEL', '10:00'],
      [people[1]!, 'EKCH_TWR', '14:00'],
    ] as const) {
      const as = { kind: 'member', cid: u.id, name: `${u.first_name} ${u.last_name}` } as const;
      await ctx.services.feedback.send({ controller: String(ADMIN), position: callsign, text: `${u.first_name} says thanks` }, as);
      await ctx.services.sweatbox.create(
        { position: callsign, date: '2026-06-10', start, end: '15:30', notes: `${u.first_name} drills` },
        as,
      );
      await ctx.services.votes.cast(vote, first!.id, u.id);
      await ctx.services.tasks.create(
        {
          type: 'custom',
          subject_user_id: u.id,
          training_id: null,
          rating: null,
          message: 'Check the roster',
          assignee_id: ADMIN,
          theory_exam_passed: false,
          creator_id: ADMIN,
        },
        ines,
      );
    }
    for (const u of people) s[u.id] = await signIn(ctx.app, ctx.services, u);
  }, 60_000);
  afterAll(() => ctx.close());

  it('shows the defaults, saves each kind and the look, honours the look on every page, re-shows a refused form', async () => {
    const signedOut = await ctx.app.inject({ method: 'GET', url: '/my/settings' });
    expect(signedOut.statusCode).toBe(303);

    const first = await get('/my/settings', ANA);
    expect(first.statusCode).toBe(200);
    for (const kind of ['endorsements', 'activity', 'tasks', 'training'])
      expect(first.body).toMatch(new RegExp(`id="mail-${kind}"[^>]* checked`));
    expect(first.body).not.toMatch(/id="mail-feedback"[^>]* checked/);
    expect(first.body).toMatch(/id="look-device"[^>]* checked/);
    expect(first.body).toContain('<html lang="en">');
    expect(first.body).toContain('href="/my/data"');

    // A forged post (no token) changes nothing.
    const forged = await ctx.app.inject({
      method: 'POST',
      url: '/my/settings',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: s[ANA]!.cookie },
      payload: 'look=dark',
    });
    expect(forged.statusCode).toBe(403);

    const refused = await post(ANA, csrfOf(first.body), [
      ['look', 'purple'],
      ['mail', 'activity'],
    ]);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('id="look-error"');
    expect(refused.body).toMatch(/id="mail-activity"[^>]* checked/);

    const saved = await post(ANA, csrfOf(first.body), [
      ['look', 'dark'],
      ['mail', 'activity'],
      ['mail', 'feedback'],
    ]);
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/my/settings?done=saved');
    const after = await get('/my/settings?done=saved', ANA);
    expect(after.body).toContain('Your settings are saved.');
    expect(after.body).toMatch(/id="mail-feedback"[^>]* checked/);
    expect(after.body).not.toMatch(/id="mail-endorsements"[^>]* checked/);
    expect(after.body).toMatch(/id="look-dark"[^>]* checked/);
    // The look is on the root element of every page the member opens, the schedule too; not another's.
    for (const url of ['/my/settings', '/my', '/my/bookings', '/'])
      expect((await get(url, ANA)).body).toContain('<html lang="en" data-look="dark">');
    expect((await get('/my', BEN)).body).toContain('<html lang="en">');
    const stored = await ctx.services.settings.of(ANA);
    expect(stored).toEqual({ look: 'dark', mail: { endorsements: false, activity: true, tasks: false, feedback: true, training: false } });
    // Audited as the member, with the changed choices only; the same form again changes nothing and adds no entry.
    const audited = async () =>
      (await ctx.services.audit.read({ target: `user:${ANA}` })).filter((a: { action: string }) => a.action === 'settings.changed');
    expect(await audited()).toEqual([
      expect.objectContaining({
        before: { look: 'device', endorsements: true, tasks: true, feedback: false, training: true },
        after: { look: 'dark', endorsements: false, tasks: false, feedback: true, training: false },
      }),
    ]);
    const again = await post(ANA, csrfOf(after.body), [
      ['look', 'dark'],
      ['mail', 'activity'],
      ['mail', 'feedback'],
    ]);
    expect(again.statusCode).toBe(303);
    expect(await audited()).toHaveLength(1);

    // The form sent three times at once (a double click, on PostgreSQL concurrent transactions): each
    // save takes its turn and reads what the one before saved, so only the first is a change.
    const token = csrfOf((await get('/my/settings', ANA)).body);
    const many = await Promise.all(
      [0, 1, 2].map(() =>
        post(ANA, token, [
          ['look', 'light'],
          ['mail', 'activity'],
        ]),
      ),
    );
    expect(many.map((r) => r.statusCode)).toEqual([303, 303, 303]);
    expect(await ctx.services.settings.of(ANA)).toEqual({
      look: 'light',
      mail: { endorsements: false, activity: true, tasks: false, feedback: false, training: false },
    });
    expect(await audited()).toHaveLength(2);
    // Back to the settings the next test reads.
    const back = await post(ANA, csrfOf((await get('/my/settings', ANA)).body), [
      ['look', 'dark'],
      ['mail', 'activity'],
      ['mail', 'feedback'],
    ]);
    expect(back.statusCode).toBe(303);
  });

  it('/my/data holds every kind of row about the member and nothing about another', async () => {
    const res = await get('/my/data', ANA);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['content-disposition']).toContain(`my-data-${ANA}.json`);
    const data = JSON.parse(res.body) as Record<string, unknown[] & Record<string, unknown>>;
    expect(data.profile).toMatchObject({ cid: ANA, first_name: 'Ana', email: 'ana@example.org' });
    expect(data.settings).toMatchObject({ look: 'dark' });
    for (const kind of [
      'bookings',
      'trainings',
      'endorsements',
      'roles',
      'audit_entries',
      'feedback_sent',
      'sweatbox_sessions',
      'votes',
      'tasks',
    ])
      expect(data[kind]!.length, kind).toBeGreaterThan(0);
    expect(JSON.stringify(data.trainings)).toContain('Ana wants S3');
    expect(data.feedback_sent).toMatchObject([{ controller: ADMIN, position: 'EKCH_DEL', text: 'Ana says thanks' }]);
    expect(data.sweatbox_sessions).toMatchObject([{ callsign: 'EKCH_DEL', notes: 'Ana drills' }]);
    expect(data.votes).toMatchObject([{ question: 'Which event first?' }]);
    // That they voted and on which day; which option, Sector does not know.
    expect(Object.keys(data.votes![0]!).sort()).toEqual(['question', 'vote_id', 'voted_on']);
    expect(data.tasks).toMatchObject([{ type: 'custom', status: 'pending' }]);
    // Nothing of Benedikt's: his cid, name, address, motivation, booking or endorsement.
    for (const other of [String(BEN), 'Benedikt', 'benedikt@example.org', 'EKCH_TWR', 'C1']) expect(res.body).not.toContain(other);
  });
});
