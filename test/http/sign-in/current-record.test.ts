// A member's session acts, at every request, with what the database says about the member now
// (contract §14, §15): after `roster:sync` (a CLI process, against the network API stand-in)
// suspends a member or makes them inactive, their sessions end; after it lowers a rating, or after
// a staff role is gone, what the session may book or change follows at its next request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { type CoreApiStandIn, member as rosterMember, startCoreApiStandIn } from '../../support/core-api-stand-in.js';
import { ADA, BO, buildBooking, buildPosition, buildRole, buildUser, type UserRecord } from '../../support/factories.js';
import { csrfOf, postForm, SIGN_IN_ENV, signIn, type SignedIn } from '../../support/members.js';
import { runCliAsync } from '../../support/processes.js';

const NOW = Date.UTC(2030, 2, 10, 12, 0, 0);
const SCA = { division: 'EUD', subdivision: 'SCA', region: 'EMEA' } as const;
const active = { atc_active_areas: { Denmark: true } };

const USERS = {
  ada: buildUser({ id: ADA, first_name: 'First1000001', last_name: 'Last1000001', rating: 'C1', ...SCA, ...active }),
  bo: buildUser({ id: BO, first_name: 'First1000002', last_name: 'Last1000002', rating: 'S2', ...SCA, ...active }),
  ina: buildUser({ id: 1000003, first_name: 'First1000003', last_name: 'Last1000003', rating: 'S2', ...SCA, ...active }),
  mo: buildUser({ id: 1000004, first_name: 'First1000004', last_name: 'Last1000004', rating: 'S3', ...SCA, ...active }),
} satisfies Record<string, UserRecord>;
/** The ratings of USERS as numbers of the network's list (features/members/domain/ratings.ts). */
const RATING_NUMBERS: Record<string, number> = { S2: 3, S3: 4, C1: 5 };

/** The options of a select on a page. */
const options = (page: string, id: string): string[] => {
  const select = new RegExp(`<select id="${id}"[^>]*>(.*?)</select>`, 's').exec(page);
  return select ? [...select[1]!.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]!) : [];
};

describe("a session follows the member's current record", () => {
  let ctx: TestContext;
  let api: CoreApiStandIn;
  const session: Partial<Record<keyof typeof USERS, SignedIn>> = {};
  const get = (url: string, who: keyof typeof USERS) => ctx.app.inject({ method: 'GET', url, headers: { cookie: session[who]!.cookie } });
  const sessionsOf = async (cid: number) =>
    (await ctx.services.db.kysely.selectFrom('sessions').select('id_hash').where('user_id', '=', cid).execute()).length;

  /** Runs roster:sync as a process against the stand-in's roster. */
  async function rosterSync() {
    const r = await runCliAsync(['roster:sync', '--json'], {
      DATABASE_URL: ctx.databaseUrl,
      DIVISION: 'EUD',
      SUBDIVISIONS: 'SCA',
      CORE_API_URL: api.url,
      CORE_API_KEY: api.key,
      CORE_API_TIMEOUT_MS: '5000',
    });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  }

  beforeAll(async () => {
    api = await startCoreApiStandIn();
    for (const u of Object.values(USERS)) api.members.set(u.id, rosterMember(u.id, 'EUD', 'SCA', RATING_NUMBERS[u.rating]));
    ctx = await createTestContext({ now: NOW, env: { ...SIGN_IN_ENV, DIVISION: 'EUD', SUBDIVISIONS: 'SCA' } });
    await ctx.load({
      areas: ['Denmark'],
      users: Object.values(USERS),
      positions: [buildPosition('EKCH_DEL'), buildPosition('EKCH_TWR'), buildPosition('EKCH_APP'), buildPosition('EKDK_CTR')],
      roles: [buildRole({ user_id: USERS.mo.id, area: 'Denmark', role: 'Moderator' })],
      bookings: [
        buildBooking({ id: 70, user_id: BO, callsign: 'EKCH_TWR', time_start: '2030-03-12 10:00:00', time_end: '2030-03-12 12:00:00' }),
      ],
    });
    for (const [who, user] of Object.entries(USERS)) session[who as keyof typeof USERS] = await signIn(ctx.app, ctx.services, user);
  }, 60_000);
  afterAll(async () => {
    await ctx.close();
    await api.close();
  });

  it('ends the sessions of a member roster:sync suspends (SUS) or makes inactive (INA): the next booking POST goes to sign-in, the session is gone', async () => {
    const tokens = { bo: csrfOf((await get('/bookings/new', 'bo')).body), ina: csrfOf((await get('/bookings/new', 'ina')).body) };
    api.members.get(BO)!.rating = 0;
    api.members.get(USERS.ina.id)!.rating = -1;
    await rosterSync();
    // Ended by the sync itself, with the change: not left for their next request.
    expect(await sessionsOf(BO)).toBe(0);
    expect(await sessionsOf(USERS.ina.id)).toBe(0);

    for (const who of ['bo', 'ina'] as const) {
      const fields = { _csrf: tokens[who], position: 'EKCH_DEL', date: '2030-03-14', start_at: '10:00', end_at: '11:00', tag: '' };
      const res = await postForm(ctx.app, '/bookings', fields, session[who]!.cookie);
      expect(res.statusCode, who).toBe(303);
      expect(String(res.headers.location), who).toMatch(/^\/auth\/login\?next=/);
      // The browser is told to forget the cookie, and the session is ended in the database.
      expect(String(res.headers['set-cookie']), who).toMatch(/^sector_session=;/);
      expect(await sessionsOf(USERS[who].id), who).toBe(0);
      const page = await get('/', who);
      expect(page.body, who).toContain('Sign in');
      expect(page.body, who).not.toContain('Sign out');
    }
    const made = await ctx.services.db.kysely.selectFrom('bookings').select('id').where('user_id', 'in', [BO, USERS.ina.id]).execute();
    expect(made).toEqual([{ id: 70 }]);
  });

  it('applies a rating lowered by roster:sync at the next request: a position above the new rating is no longer offered or accepted', async () => {
    expect(options((await get('/bookings/new', 'ada')).body, 'position')).toEqual(['EKCH_APP', 'EKCH_DEL', 'EKCH_TWR', 'EKDK_CTR']);
    api.members.get(ADA)!.rating = 3; // C1 -> S2
    await rosterSync();
    const form = (await get('/bookings/new', 'ada')).body;
    expect(options(form, 'position')).toEqual(['EKCH_DEL', 'EKCH_TWR']);
    const res = await postForm(
      ctx.app,
      '/bookings',
      { _csrf: csrfOf(form), position: 'EKDK_CTR', date: '2030-03-14', start_at: '10:00', end_at: '11:00', tag: '' },
      session.ada!.cookie,
    );
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('EKDK_CTR needs rating C1; you may book positions up to S2.');
  });

  it("applies a staff role taken away at the next request: editing or cancelling someone else's booking is 403", async () => {
    expect((await get('/bookings/70/edit', 'mo')).statusCode).toBe(200);
    const token = csrfOf((await get('/bookings/new', 'mo')).body);
    // No command takes a role away yet (import only adds them): the row goes as staff administration would remove it.
    await ctx.services.db.kysely.deleteFrom('roles').where('user_id', '=', USERS.mo.id).execute();
    expect((await get('/bookings/70/edit', 'mo')).statusCode).toBe(403);
    const fields = { _csrf: token, position: 'EKCH_TWR', date: '2030-03-12', start_at: '10:00', end_at: '13:00', tag: '' };
    const edit = await postForm(ctx.app, '/bookings/70', fields, session.mo!.cookie);
    expect(edit.statusCode).toBe(403);
    expect(edit.body).toContain('You may change or cancel only your own bookings.');
    expect((await postForm(ctx.app, '/bookings/70/cancel', { _csrf: token }, session.mo!.cookie)).statusCode).toBe(403);
    const stored = await ctx.services.db.kysely
      .selectFrom('bookings')
      .select(['time_end', 'deleted'])
      .where('id', '=', 70)
      .executeTakeFirst();
    expect(stored).toEqual({ time_end: Date.UTC(2030, 2, 12, 12), deleted: 0 });
  });
});
