// The staff pages over HTTP (contract §17), on both databases: the door (sign-in, 403 for a member
// without a role), the Staff link, CSRF refusal, every form through the API's services (audit actor
// member:<cid>, events), a rule failure beside its field, a refused action as 403 with its reason,
// and the positions page's 409 for a position with live bookings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, TEST_DIALECT, type TestContext } from '../../support/context.js';
import { ADA, BO, buildBooking } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';
import { ADMIN, assignAdasMentor, buildStaffDivision, MENTOR, MOD, PLAIN, STAFF_USERS } from '../../support/staff-division.js';

const NOW = Date.UTC(2030, 2, 10, 12);

describe('staff pages', () => {
  let ctx: TestContext;
  const as: Record<string, SignedIn> = {};
  const get = (who: string, url: string) => ctx.app.inject({ method: 'GET', url, headers: { cookie: as[who]!.cookie } });
  /** Posts a form as a browser would: with the CSRF token of the page it is on. */
  async function post(who: string, page: string, url: string, fields: Record<string, string>) {
    const token = csrfOf((await get(who, page)).body);
    return postForm(ctx.app, url, { ...fields, _csrf: token }, as[who]!.cookie);
  }
  const endorsementsOf = (cid: number) =>
    ctx.services.db.kysely.selectFrom('endorsements').select(['id', 'type', 'revoked']).where('user_id', '=', cid).execute();

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW, env: { ...SIGN_IN_ENV, DIVISION: 'EUD' } });
    await ctx.load(buildStaffDivision({ bookings: [buildBooking({ user_id: ADMIN, callsign: 'ESSA_TWR' })] }));
    await assignAdasMentor(ctx.services.db.kysely);
    for (const [name, id] of Object.entries({ ADMIN, MOD, MENTOR, PLAIN })) {
      as[name] = await signIn(
        ctx.app,
        ctx.services,
        STAFF_USERS.find((u) => u.id === id)!,
      );
    }
  });
  afterAll(() => ctx.close());

  it('sends a signed-out visitor to sign in, and responds to a member without a role with 403 saying why', async () => {
    const out = await ctx.app.inject({ method: 'GET', url: '/staff/users?q=ada' });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/auth/login?next=%2Fstaff%2Fusers%3Fq%3Dada');
    for (const url of ['/staff', '/staff/users', `/staff/users/${ADA}`, '/staff/endorsements', '/staff/positions']) {
      const res = await get('PLAIN', url);
      expect(res.statusCode, url).toBe(403);
      expect(res.body).toContain('The staff pages are for members holding a role');
      // A page only viewed changes nothing to speak of, and no link leads back to the same refusal.
      expect(res.body, url).not.toContain('Nothing was changed');
      expect(res.body, url).not.toContain('href="/staff"');
      expect(res.body, url).toContain(`Signed in as <strong>`);
      expect(res.body, url).toContain('<footer>');
    }
  });

  it('shows the Staff link to members holding a role, and to nobody else', async () => {
    for (const who of ['ADMIN', 'MOD', 'MENTOR'])
      expect((await get(who, '/my/bookings')).body, who).toContain('<a href="/staff">Staff</a>');
    expect((await get('PLAIN', '/my/bookings')).body).not.toContain('href="/staff"');
  });

  it('refuses a staff form without the session’s CSRF token, changing nothing', async () => {
    const before = await endorsementsOf(ADA);
    const form = { type: 'solo', positions: 'EKCH_APP', valid_to: '2030-03-20' };
    const res = await postForm(ctx.app, `/staff/users/${ADA}/endorsements`, { ...form, _csrf: 'forged' }, as.MENTOR!.cookie);
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Form refused');
    const missing = await postForm(ctx.app, `/staff/users/${ADA}/endorsements`, form, as.MENTOR!.cookie);
    expect(missing.statusCode).toBe(403);
    expect(await endorsementsOf(ADA)).toEqual(before);
  });

  it('checks sign-in, the CSRF token and the role before the fields: a field too long to take never decides first', async () => {
    const before = await endorsementsOf(ADA);
    const url = `/staff/users/${ADA}/endorsements`;
    const form = { type: 'solo', positions: 'EKCH_APP', valid_to: 'x'.repeat(2001) };
    const out = await postForm(ctx.app, url, form, null);
    expect(out.statusCode).toBe(303);
    expect(String(out.headers.location)).toMatch(/^\/auth\/login\?next=/);
    const forged = await postForm(ctx.app, url, { ...form, _csrf: 'forged' }, as.MENTOR!.cookie);
    expect(forged.statusCode).toBe(403);
    expect(forged.body).toContain('Form refused');
    const noRole = await post('PLAIN', '/my/bookings', url, form);
    expect(noRole.statusCode).toBe(403);
    expect(noRole.body).toContain('The staff pages are for members holding a role');
    const refused = await post('MENTOR', `/staff/users/${ADA}`, url, form);
    expect(refused.statusCode).toBe(422);
    expect(await endorsementsOf(ADA)).toEqual(before);
  });

  it('lets a mentor issue a solo to their own trainee: 303 with a notice, audited as the member, published', async () => {
    const res = await post('MENTOR', `/staff/users/${ADA}`, `/staff/users/${ADA}/endorsements`, {
      type: 'solo',
      positions: 'EKCH_APP',
      valid_to: '2030-03-20',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/staff/users/${ADA}?done=issued`);
    const page = await get('MENTOR', res.headers.location as string);
    expect(page.body).toContain('Endorsement issued.');
    expect(page.body).toContain('active until 2030-03-20 23:59 UTC');
    const [solo] = await endorsementsOf(ADA);
    const audit = await ctx.services.audit.read({ target: `endorsement:${solo!.id}` });
    expect(audit[0]).toMatchObject({ action: 'endorsement.created', actor: `member:${MENTOR}` });
    const events = await ctx.services.db.kysely.selectFrom('events').select('type').where('type', '=', 'endorsement.created').execute();
    expect(events).toHaveLength(1);
  });

  it('returns 403 with the reason when the role does not allow the action, changing nothing', async () => {
    const solo = await post('MENTOR', `/staff/users/${BO}`, `/staff/users/${BO}/endorsements`, {
      type: 'solo',
      positions: 'EKCH_TWR',
      valid_to: '2030-03-15',
    });
    expect(solo.statusCode).toBe(403);
    expect(solo.body).toContain(
      'A solo endorsement is issued by the area&#39;s Administrators and Moderators, or by the student&#39;s own mentor. Nothing was changed.',
    );
    // A staff member refused: the overview opens for them.
    expect(solo.body).toContain('<a href="/staff">Staff overview</a>');
    const admin = await post('MOD', `/staff/users/${BO}`, `/staff/users/${BO}/roles`, { role: 'Administrator', area: 'Denmark' });
    expect(admin.statusCode).toBe(403);
    expect(admin.body).toContain('Only an Administrator of the whole division grants or revokes Administrator.');
    expect(await endorsementsOf(BO)).toEqual([]);
    expect(await ctx.services.roles.list(BO)).toEqual([]);
  });

  it('lets a division-wide Administrator grant and revoke Administrator of an area on the page', async () => {
    const granted = await post('ADMIN', `/staff/users/${PLAIN}`, `/staff/users/${PLAIN}/roles`, { role: 'Administrator', area: 'Sweden' });
    expect(granted.statusCode).toBe(303);
    expect(await ctx.services.roles.list(PLAIN)).toEqual([expect.objectContaining({ role: 'Administrator', area: 'Sweden' })]);
    const audit = await ctx.services.audit.read({ target: `user:${PLAIN}` });
    expect(audit.map((e) => e.actor)).toContain(`member:${ADMIN}`);
    const revoked = await post('ADMIN', `/staff/users/${PLAIN}`, `/staff/users/${PLAIN}/roles/revoke`, {
      role: 'Administrator',
      area: 'Sweden',
    });
    expect(revoked.statusCode).toBe(303);
    expect(await ctx.services.roles.list(PLAIN)).toEqual([]);
  });

  it('shows a rule failure beside its field (422), with what was sent kept', async () => {
    const res = await post('MOD', `/staff/users/${BO}`, `/staff/users/${BO}/endorsements`, {
      type: 'solo',
      positions: 'EKCH_TWR',
      valid_to: '2030-05-01',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toMatch(
      /<input id="issue-valid_to" name="valid_to" type="date" min="2030-03-10" value="2030-05-01" aria-describedby="issue-valid_to-hint issue-valid_to-error" aria-invalid="true" \/>/,
    );
    expect(res.body).toMatch(/<p class="error" id="issue-valid_to-error">[^<]*30 days/);
    const bad = await post('MOD', `/staff/users/${BO}`, `/staff/users/${BO}/endorsements`, {
      type: 'solo',
      positions: 'EKCH_TWR',
      valid_to: '20/3',
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('<p class="error" id="issue-valid_to-error">Give the last day as a date, YYYY-MM-DD.</p>');
    expect(await endorsementsOf(BO)).toEqual([]);
  });

  it('lets a moderator grant and revoke Mentor, and shortens and revokes an endorsement', async () => {
    const granted = await post('MOD', `/staff/users/${BO}`, `/staff/users/${BO}/roles`, { role: 'Mentor', area: 'Denmark' });
    expect(granted.statusCode).toBe(303);
    expect(await ctx.services.roles.list(BO)).toEqual([{ user_id: BO, role: 'Mentor', area: 'Denmark' }]);
    const revoked = await post('MOD', `/staff/users/${BO}`, `/staff/users/${BO}/roles/revoke`, { role: 'Mentor', area: 'Denmark' });
    expect(revoked.headers.location).toBe(`/staff/users/${BO}?done=role-revoked`);
    expect(await ctx.services.roles.list(BO)).toEqual([]);

    const [solo] = await endorsementsOf(ADA);
    const longer = await post('MOD', `/staff/users/${ADA}`, `/staff/endorsements/${solo!.id}/end`, { valid_to: '2030-03-25' });
    expect(longer.statusCode).toBe(422);
    expect(longer.body).toContain(`id="end-${solo!.id}-valid_to-error"`);
    const shorter = await post('MOD', `/staff/users/${ADA}`, `/staff/endorsements/${solo!.id}/end`, { valid_to: '2030-03-15' });
    expect(shorter.headers.location).toBe(`/staff/users/${ADA}?done=shortened`);
    const gone = await post('MOD', `/staff/users/${ADA}`, `/staff/endorsements/${solo!.id}/revoke`, {});
    expect(gone.headers.location).toBe(`/staff/users/${ADA}?done=revoked`);
    const again = await post('MOD', `/staff/users/${ADA}`, `/staff/endorsements/${solo!.id}/revoke`, {});
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('is already revoked');
    expect((await ctx.services.audit.read({ target: `endorsement:${solo!.id}` })).map((a) => a.actor)).toEqual([
      `member:${MOD}`,
      `member:${MOD}`,
      `member:${MENTOR}`,
    ]);
  });

  it('finds people by CID prefix or part of a name', async () => {
    const byName = await get('MENTOR', '/staff/users?q=berg');
    expect(byName.body).toContain(`<a href="/staff/users/${BO}">Bo Berg</a>`);
    expect(byName.body).not.toContain(`/staff/users/${ADA}"`);
    const byCid = await get('MENTOR', `/staff/users?q=${String(ADMIN).slice(0, 6)}`);
    expect(byCid.body).toContain('4 matches');
    expect((await get('MENTOR', '/staff/users?q=%25')).body).toContain('Nobody matches');
    // A NUL: SQLite finds nobody; PostgreSQL refuses such text, which is the request's fault, not an outage.
    const nul = await get('MENTOR', '/staff/users?q=a%00');
    if (TEST_DIALECT === 'postgres') {
      expect(nul.statusCode).toBe(400);
      expect(nul.body).toContain('Text in the request must not contain NUL characters; nothing was changed.');
    } else {
      expect(nul.statusCode).toBe(200);
      expect(nul.body).toContain('Nobody matches');
    }
  });

  it('keeps the positions page to Administrators; adds, refuses a bad field beside it, and 409s a position with live bookings', async () => {
    const mod = await get('MOD', '/staff/positions');
    expect(mod.statusCode).toBe(403);
    expect(mod.body).toContain('positions are added, changed and removed by its Administrators');
    const fields = {
      callsign: 'ekch_gnd',
      name: 'Kastrup Ground',
      frequency: '140.000',
      area: 'Denmark',
      rating: 'S1',
      required_facility: '',
    };
    const bad = await post('ADMIN', '/staff/positions', '/staff/positions', fields);
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('<p class="error" id="position-new-frequency-error">The frequency must be NNN.NNN in the VHF air band');
    const added = await post('ADMIN', '/staff/positions', '/staff/positions', { ...fields, frequency: '121.905' });
    expect(added.headers.location).toBe('/staff/positions?done=added');
    expect((await ctx.services.positions.details()).map((p) => p.callsign)).toContain('EKCH_GND');
    const changed = await post('ADMIN', '/staff/positions', '/staff/positions/ekch_gnd', {
      ...fields,
      name: 'Kastrup Apron',
      frequency: '121.630',
    });
    expect(changed.headers.location).toBe('/staff/positions?done=changed');
    expect((await ctx.services.positions.details()).find((p) => p.callsign === 'EKCH_GND')).toMatchObject({
      name: 'Kastrup Apron',
      frequency: '121.630',
    });
    expect((await ctx.services.audit.read({ target: 'position:EKCH_GND' })).map((a) => [a.action, a.actor])).toEqual([
      ['position.updated', `member:${ADMIN}`],
      ['position.created', `member:${ADMIN}`],
    ]);
    const blank = await post('ADMIN', '/staff/positions', '/staff/positions/EKCH_GND', { ...fields, name: '' });
    expect(blank.statusCode).toBe(422);
    expect(blank.body).toContain('<p class="error" id="position-EKCH_GND-name-error">The name field must be 1 to 100 characters.</p>');
    expect(blank.body).toMatch(/<details open><summary>Change or remove EKCH_GND<\/summary>/);
    const kept = await post('ADMIN', '/staff/positions', '/staff/positions/ESSA_TWR/remove', {});
    expect(kept.statusCode).toBe(409);
    expect(kept.body).toContain('ESSA_TWR has 1 booking that keep it');
    expect((await get('ADMIN', '/staff/positions?done=removed')).body).toContain('Position removed.');
  });

  it('issues a visiting endorsement with the areas ticked, listed on the endorsements page of those areas only', async () => {
    const token = csrfOf((await get('ADMIN', `/staff/users/${BO}`)).body);
    const body = new URLSearchParams([
      ['type', 'visiting'],
      ['rating', 'S2'],
      ['areas', 'Sweden'],
      ['areas', 'Denmark'],
      ['valid_to', ''],
      ['_csrf', token],
    ]).toString();
    const res = await ctx.app.inject({
      method: 'POST',
      url: `/staff/users/${BO}/endorsements`,
      headers: { cookie: as.ADMIN!.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: body,
    });
    expect(res.headers.location).toBe(`/staff/users/${BO}?done=issued`);
    const [visiting] = await ctx.services.endorsements.list({ user_id: BO, type: 'visiting' });
    expect(visiting).toMatchObject({ areas: ['Denmark', 'Sweden'], rating: 'S2', valid_to: null, issued_by: ADMIN });

    const visitingOnly = (await get('ADMIN', '/staff/endorsements?type=visiting')).body;
    expect(visitingOnly).toContain(`<a href="/staff/users/${BO}">Bo Berg</a> (${BO}): <strong>visiting</strong> S2 (Denmark, Sweden)`);
    expect((await get('ADMIN', '/staff/endorsements?type=solo')).body).not.toContain('<strong>visiting</strong>');
    const examiner = await post('ADMIN', `/staff/users/${PLAIN}`, `/staff/users/${PLAIN}/endorsements`, {
      type: 'examiner',
      rating: 'S3',
      areas: 'Sweden',
    });
    expect(examiner.headers.location).toBe(`/staff/users/${PLAIN}?done=issued`);
    expect((await get('ADMIN', '/staff/endorsements?area=Sweden')).body).toContain('<strong>examiner</strong> S3 (Sweden)');
    // A Moderator of Denmark sees Denmark's endorsements only.
    const mod = (await get('MOD', '/staff/endorsements')).body;
    expect(mod).toContain('<strong>visiting</strong>');
    expect(mod).not.toContain('<strong>examiner</strong>');
  });

  it('returns 404 for a person or endorsement that does not exist', async () => {
    for (const url of ['/staff/users/999999', '/staff/users/abc', '/staff/users/99999999999']) {
      expect((await get('ADMIN', url)).statusCode, url).toBe(404);
    }
    const res = await post('ADMIN', '/staff', '/staff/endorsements/424242/revoke', {});
    expect(res.statusCode).toBe(404);
  });
});
