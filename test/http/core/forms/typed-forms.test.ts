// Every kind of page form refuses a field its schema does not take the way a page refuses a rule:
// the form again (422) with the message beside the field, and nothing written; a path that names
// nothing is that page's 404. On both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../../support/context.js';
import { DIVISION_TABLES, tableRows } from '../../../support/db-state.js';
import {
  ADA,
  BO,
  buildDivision,
  buildEndorsement,
  buildPosition,
  buildRole,
  buildTraining,
  buildUser,
} from '../../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../../support/members.js';

const NOW = Date.UTC(2030, 2, 10, 12);
const ADMIN = 1000010;
const users = [
  buildUser({ id: ADA, first_name: 'Ada', last_name: 'Lind', rating: 'S2', division: 'EUD', atc_active_areas: { Denmark: true } }),
  buildUser({ id: BO, first_name: 'Bo', last_name: 'Berg', rating: 'S1' }),
  buildUser({ id: ADMIN, first_name: 'Alma', last_name: 'Admin', rating: 'C1' }),
];

describe('typed page forms', () => {
  let ctx: TestContext;
  const as: Record<string, SignedIn> = {};
  const get = (who: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie: as[who]!.cookie } });
  /** Posts a form with the CSRF token of the page it is on. */
  async function post(who: string, page: string, url: string, fields: Record<string, string>) {
    const token = csrfOf((await get(who, page)).body);
    return postForm(ctx.app, url, { ...fields, _csrf: token }, as[who]!.cookie);
  }
  const written = () => tableRows(ctx.databaseUrl, [...DIVISION_TABLES, 'events', 'audit_log']);
  let trainingId = 0;
  let endorsementId = 0;

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: SIGN_IN_ENV });
    await ctx.load(
      buildDivision({
        areas: ['Denmark'],
        users,
        positions: [buildPosition('EKCH_TWR')],
        roles: [buildRole({ user_id: ADMIN, area: null, role: 'Administrator' })],
        endorsements: [buildEndorsement({ user_id: BO })],
        trainings: [buildTraining({ user_id: BO, status: 1, ratings: ['S2'] })],
      }),
    );
    const db = ctx.services.db.kysely;
    trainingId = (await db.selectFrom('trainings').select('id').executeTakeFirstOrThrow()).id;
    endorsementId = (await db.selectFrom('endorsements').select('id').executeTakeFirstOrThrow()).id;
    for (const user of users) as[user.id] = await signIn(ctx.app, ctx.services, user);
  });
  afterAll(() => ctx.close());

  it('shows each staff form again with the refused field’s message beside it, and writes nothing', async () => {
    const before = await written();
    const person = `/staff/users/${BO}`;
    const training = `/staff/trainings/${trainingId}`;
    const cases: Array<[page: string, url: string, fields: Record<string, string>, error: string]> = [
      [
        person,
        `/staff/endorsements/${endorsementId}/end`,
        { valid_to: '2030-02-30' },
        `id="end-${endorsementId}-valid_to-error">Give the last day as a date, YYYY-MM-DD.`,
      ],
      [
        person,
        `${person}/roles`,
        { role: 'x'.repeat(2001), area: 'Denmark' },
        'id="role-role-error">The role field must be at most 2000 characters long.',
      ],
      [
        '/staff/positions',
        '/staff/positions',
        { callsign: 'EKCH_GND', name: 'n'.repeat(2001) },
        'id="position-new-name-error">The name field must be at most 2000 characters long.',
      ],
      [
        '/staff/trainings',
        '/staff/trainings',
        { user_id: String(ADA), area: 'Denmark', ratings: 'S2', status: '9' },
        'id="training-new-status-error">The status must be one of: 0, 1, 2, 3.',
      ],
      [
        training,
        `${training}/reports`,
        { report_date: '2030-03-09', content: 'c'.repeat(25_001) },
        'id="report-content-error">The content field must be at most 25000 characters long.',
      ],
    ];
    for (const [page, url, fields, error] of cases) {
      const res = await post(String(ADMIN), page, url, fields);
      expect(res.statusCode, url).toBe(422);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).toContain(error);
    }
    expect(await written()).toEqual(before);
  });

  it('keeps what was sent in a refused staff form, a repeated field as its first value', async () => {
    const token = csrfOf((await get(String(ADMIN), '/staff/positions')).body);
    const body = new URLSearchParams([
      ['callsign', 'ekch_gnd'],
      ['callsign', 'ESSA_GND'],
      ['name', ' Kastrup Ground '],
      ['frequency', 'f'.repeat(2001)],
      ['_csrf', token],
    ]);
    const res = await postForm(ctx.app, '/staff/positions', {}, as[ADMIN]!.cookie, { payload: body.toString() });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('The frequency field must be at most 2000 characters long.');
    expect(res.body).toContain('value="EKCH_GND"');
    expect(res.body).toContain('value="Kastrup Ground"');
  });

  it('shows the members’ forms again with the refused field’s message beside it, and writes nothing', async () => {
    const before = await written();
    const apply = await post(String(ADA), '/training/apply', '/training/apply', {
      area: 'Denmark',
      ratings: 'S3',
      motivation: 'm',
      experience: '',
    });
    expect(apply.statusCode).toBe(422);
    expect(apply.body).toContain('id="experience-error">Choose your experience.');
    const booking = await post(String(ADA), '/bookings/new', '/bookings', {
      position: 'x'.repeat(2001),
      date: '2030-03-14',
      start_at: '10:00',
      end_at: '11:00',
    });
    expect(booking.statusCode).toBe(422);
    expect(booking.body).toContain('The position field must be at most 2000 characters long.');
    expect(await written()).toEqual(before);
  });

  it('answers a path that is not an id with the page’s 404, for a page and for a form', async () => {
    const before = await written();
    for (const [url, title] of [
      ['/staff/users/abc', 'No such person'],
      ['/staff/users/0', 'No such person'],
      ['/staff/trainings/99999999999', 'No such training'],
      ['/bookings/abc/edit', 'No such booking'],
    ]) {
      const res = await get(String(ADMIN), url!);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain(title);
    }
    for (const [page, url, title] of [
      [`/staff/users/${BO}`, '/staff/endorsements/abc/end', 'No such endorsement'],
      [`/staff/users/${BO}`, '/staff/users/-1/roles', 'No such person'],
      [`/staff/trainings/${trainingId}`, '/staff/trainings/x/status', 'No such training'],
      ['/my/bookings', '/bookings/1.5/cancel', 'No such booking'],
    ]) {
      const res = await post(String(ADMIN), page!, url!, { valid_to: '', status: '1' });
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).toContain(title);
    }
    expect(await written()).toEqual(before);
  });

  it('takes a whole number only as digits: `1e3`, `+5` or ` 5` in a CID field or a path is not a number', async () => {
    const before = await written();
    for (const typed of ['1e3', '+5', '0x10', '5.0']) {
      const res = await post(String(ADMIN), '/staff/trainings', '/staff/trainings', {
        user_id: typed,
        area: 'Denmark',
        ratings: 'S2',
        status: '0',
      });
      expect(res.statusCode, typed).toBe(422);
      expect(res.body, typed).toContain('id="training-new-user_id-error">Give the CID of the member to train (a number).');
      // The form comes back with what was typed, not with what a loose reading made of it.
      expect(res.body, typed).toContain(`value="${typed}"`);
    }
    for (const typed of ['1e3', '+5', '%205', '5.0']) {
      const res = await get(String(ADMIN), `/staff/users/${typed}`);
      expect(res.statusCode, typed).toBe(404);
      expect(res.body, typed).toContain('No such person');
    }
    const mentors = await post(String(ADMIN), `/staff/trainings/${trainingId}`, `/staff/trainings/${trainingId}`, {
      type: 'Standard',
      mentors: '+1000010',
    });
    expect(mentors.statusCode).toBe(422);
    expect(mentors.body).toContain('id="change-mentors-error">Each mentor is named by their CID (a number).');
    expect(await written()).toEqual(before);
  });

  // Last: it closes the training the other cases use.
  it('says why a form sent to a training closed meanwhile changed nothing, where the form would have been', async () => {
    const page = `/staff/trainings/${trainingId}`;
    const token = csrfOf((await get(String(ADMIN), page)).body);
    const close = await postForm(
      ctx.app,
      `${page}/status`,
      { status: '-2', closed_reason: 'Left the division', _csrf: token },
      as[ADMIN]!.cookie,
    );
    expect(close.statusCode).toBe(303);
    const before = await written();
    // The forms were on the page opened before the training was closed.
    const report = await postForm(
      ctx.app,
      `${page}/reports`,
      { report_date: '2030-02-30', content: 'Good session', _csrf: token },
      as[ADMIN]!.cookie,
    );
    expect(report.statusCode).toBe(422);
    expect(report.body).toContain(
      'role="alert" id="report-problem">Nothing was changed: The report_date field must be a date, YYYY-MM-DD.</p>',
    );
    const status = await postForm(ctx.app, `${page}/status`, { status: '1', _csrf: token }, as[ADMIN]!.cookie);
    expect(status.statusCode).toBe(409);
    expect(status.body).toMatch(/role="alert" id="status-problem">Nothing was changed: [^<]+closed/);
    expect(status.body).toContain('This training is closed: Left the division; it cannot be changed.');
    expect(await written()).toEqual(before);
  });
});
