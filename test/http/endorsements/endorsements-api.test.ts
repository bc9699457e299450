// Endorsements through the API (contract §17): issuing under every rule, shortening, revoking,
// the lists, what follows a change at once (the users API, who may book), and expiry published once.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { ADA, BO, buildDivision, buildPosition, buildTraining, buildUser } from '../../support/factories.js';
import { endorsementExpiryWorker } from '../../../src/features/endorsements/expiry.worker.js';

const NOW = Date.UTC(2026, 2, 10, 12);
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
const CY = 1000003;

describe('endorsements through the API', () => {
  let ctx: TestContext;
  let edit: string;
  let read: string;
  const post = (payload: object, token = edit) => ctx.request({ method: 'POST', url: '/api/endorsements', token, payload });
  const events = async (type: string) =>
    (await ctx.services.db.kysely.selectFrom('events').select(['type', 'body']).where('type', '=', type).orderBy('seq').execute()).map(
      (e) => JSON.parse(e.body) as { data: { endorsement: { id: number } } },
    );

  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(
      buildDivision({
        areas: ['Denmark', 'Sweden'],
        users: [
          buildUser({ rating: 'S2' }),
          buildUser({ id: BO, first_name: 'Bo', rating: 'S1' }),
          buildUser({ id: CY, first_name: 'Cy', rating: 'S3' }),
        ],
        positions: [buildPosition('EKCH_TWR', { required_facility: 'T1 EKCH TWR' }), buildPosition('EKCH_APP'), buildPosition('ESSA_TWR')],
        trainings: [buildTraining({ user_id: ADA, status: 2, ratings: ['S3'] }), buildTraining({ user_id: BO, status: 0 })],
      }),
    );
    edit = await ctx.key('edit');
    read = await ctx.key('read');
  });
  afterAll(() => ctx.close());

  it('issues a solo on one position of an area where the student trains, for at most 30 days, with its event and audit entry', async () => {
    const res = await post({ user_id: ADA, type: 'solo', positions: ['ekch_app'], valid_to: iso(NOW + 14 * DAY) });
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toEqual({
      id: expect.any(Number),
      user_id: ADA,
      type: 'solo',
      rating: null,
      areas: [],
      positions: ['EKCH_APP'],
      valid_from: '2026-03-10T12:00:00.000000Z',
      valid_to: '2026-03-24T12:00:00.000000Z',
      revoked: false,
      revoked_at: null,
      created_at: '2026-03-10T12:00:00.000000Z',
      issued_by: null,
    });
    expect(res.headers.location).toBe(`/api/endorsements/${body.id}`);
    expect((await events('endorsement.created')).map((e) => e.data.endorsement)).toContainEqual(body);
    const audit = await ctx.services.audit.read({ target: `endorsement:${body.id}` });
    expect(audit[0]).toMatchObject({ action: 'endorsement.created', actor: expect.stringMatching(/^key:/) });

    // The users API shows it at once.
    const users = (await ctx.request({ method: 'GET', url: '/api/users?include=endorsements', token: read })).json();
    expect(users.find((u: { id: number }) => u.id === ADA).endorsements.training.solo).toEqual([
      { valid_from: '2026-03-10T12:00:00.000000Z', valid_to: '2026-03-24T12:00:00.000000Z', positions: ['EKCH_APP'] },
    ]);
  });

  it('refuses a second active solo with 409 naming the first, and changes nothing', async () => {
    const before = (await ctx.request({ method: 'GET', url: `/api/endorsements?user_id=${ADA}`, token: read })).json().data;
    const res = await post({ user_id: ADA, type: 'solo', positions: ['EKCH_APP'], valid_to: iso(NOW + 2 * DAY) });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toMatch(/already holds Solo endorsement \d+ on EKCH_APP/);
    expect((await ctx.request({ method: 'GET', url: `/api/endorsements?user_id=${ADA}`, token: read })).json().data).toEqual(before);
  });

  it.each([
    [
      'no open training past the queue',
      { user_id: BO, type: 'solo', positions: ['EKCH_APP'], valid_to: iso(NOW + DAY) },
      'positions',
      /open training in Denmark/,
    ],
    [
      'a training in another area',
      { user_id: CY, type: 'solo', positions: ['ESSA_TWR'], valid_to: iso(NOW + DAY) },
      'positions',
      /open training in Sweden/,
    ],
    [
      'more than 30 days',
      { user_id: ADA, type: 'solo', positions: ['EKCH_APP'], valid_to: iso(NOW + 31 * DAY) },
      'valid_to',
      /at most 30 days/,
    ],
    ['no end', { user_id: ADA, type: 'solo', positions: ['EKCH_APP'] }, 'valid_to', /needs an end/],
    [
      'two positions',
      { user_id: ADA, type: 'solo', positions: ['EKCH_APP', 'EKCH_TWR'], valid_to: iso(NOW + DAY) },
      'positions',
      /exactly one/,
    ],
    [
      'an unknown position',
      { user_id: ADA, type: 'solo', positions: ['EKXX_APP'], valid_to: iso(NOW + DAY) },
      'positions',
      /no position EKXX_APP/,
    ],
    ['an s1', { user_id: ADA, type: 's1', positions: ['EKCH_TWR'] }, 'type', /history/],
    ['a facility no position requires', { user_id: ADA, type: 'facility', rating: 'T9 NOWHERE' }, 'rating', /No position requires/],
    ['a visiting without areas', { user_id: CY, type: 'visiting', rating: 'S3' }, 'areas', /at least one area/],
    ['an examiner rated S1', { user_id: CY, type: 'examiner', rating: 'S1', areas: ['Denmark'] }, 'rating', /S2 to C3/],
    ['an unknown user', { user_id: 9999999, type: 'visiting', rating: 'S3', areas: ['Denmark'] }, 'user_id', /no user/],
    [
      'an end in the past',
      { user_id: CY, type: 'visiting', rating: 'S3', areas: ['Denmark'], valid_to: iso(NOW - DAY), valid_from: iso(NOW - 2 * DAY) },
      'valid_to',
      /future/,
    ],
    [
      'a time that is not ISO 8601',
      { user_id: CY, type: 'visiting', rating: 'S3', areas: ['Denmark'], valid_to: '24/12/2026' },
      'valid_to',
      /ISO 8601/,
    ],
  ])('refuses %s with 422 naming the field', async (_, payload, field, message) => {
    const count = (await ctx.request({ method: 'GET', url: '/api/endorsements', token: read })).json().data.length;
    const res = await post(payload);
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[field]).toEqual([expect.stringMatching(message)]);
    expect((await ctx.request({ method: 'GET', url: '/api/endorsements', token: read })).json().data).toHaveLength(count);
  });

  it('issues a facility endorsement once: a second of the same name is 409; it lifts the forced training tag at once', async () => {
    const book = () =>
      ctx.request({
        method: 'POST',
        url: '/api/bookings/create',
        token: edit,
        payload: { cid: CY, position: 'EKCH_TWR', date: '12/03/2030', start_at: '10:00', end_at: '11:00' },
      });
    const forced = await book();
    expect(forced.json().booking.training).toBe(1);
    await ctx.request({ method: 'DELETE', url: `/api/bookings/${forced.json().booking.id}`, token: edit });
    const res = await post({ user_id: CY, type: 'facility', rating: 'T1 EKCH TWR' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ type: 'facility', rating: 'T1 EKCH TWR', valid_to: null });
    expect((await post({ user_id: CY, type: 'facility', rating: 'T1 EKCH TWR' })).statusCode).toBe(409);
    expect((await book()).json().booking.training).toBe(0);
  });

  it('issues visiting and examiner endorsements with areas, one active of each type per user', async () => {
    const visiting = await post({ user_id: CY, type: 'visiting', rating: 'S3', areas: ['denmark', 'Sweden'] });
    expect(visiting.statusCode).toBe(201);
    expect(visiting.json().areas).toEqual(['Denmark', 'Sweden']);
    const again = await post({ user_id: CY, type: 'visiting', rating: 'C1', areas: ['Sweden'] });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toContain(`Visiting endorsement ${visiting.json().id} (S3)`);
    expect((await post({ user_id: CY, type: 'examiner', rating: 'S3', areas: ['Denmark'] })).statusCode).toBe(201);
  });

  it('accepts a form body as well as JSON', async () => {
    const res = await ctx.request({
      method: 'POST',
      url: '/api/endorsements',
      token: edit,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `user_id=${BO}&type=visiting&rating=S1&areas=Sweden`,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ user_id: BO, type: 'visiting', areas: ['Sweden'] });
  });

  it('shortens a solo, never extends it, and refuses an end in the past', async () => {
    const solo = (await ctx.request({ method: 'GET', url: `/api/endorsements?user_id=${ADA}&type=solo&active=true`, token: read })).json()
      .data[0];
    const patch = (valid_to: string | null) =>
      ctx.request({ method: 'PATCH', url: `/api/endorsements/${solo.id}`, token: edit, payload: { valid_to } });
    expect((await patch(iso(NOW + 20 * DAY))).statusCode).toBe(422);
    expect((await patch(null)).statusCode).toBe(422);
    expect((await patch(iso(NOW - DAY))).json().errors.valid_to).toEqual([expect.stringMatching(/future/)]);
    const shortened = await patch(iso(NOW + 7 * DAY));
    expect(shortened.statusCode).toBe(200);
    expect(shortened.json().valid_to).toBe('2026-03-17T12:00:00.000000Z');
    expect((await events('endorsement.updated')).at(-1)!.data.endorsement).toEqual(shortened.json());
  });

  it('revokes: it ends now and shows as revoked; revoking again is 409; the users API drops it', async () => {
    const visiting = (await ctx.request({ method: 'GET', url: `/api/endorsements?user_id=${BO}&type=visiting`, token: read })).json()
      .data[0];
    const res = await ctx.request({ method: 'DELETE', url: `/api/endorsements/${visiting.id}`, token: edit });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ revoked: true, revoked_at: '2026-03-10T12:00:00.000000Z', valid_to: '2026-03-10T12:00:00.000000Z' });
    expect((await ctx.request({ method: 'DELETE', url: `/api/endorsements/${visiting.id}`, token: edit })).statusCode).toBe(409);
    expect((await ctx.request({ method: 'DELETE', url: '/api/endorsements/999999', token: edit })).statusCode).toBe(404);
    const users = (await ctx.request({ method: 'GET', url: '/api/users?include=endorsements', token: read })).json();
    expect(users.find((u: { id: number }) => u.id === BO)?.endorsements.visiting ?? []).toEqual([]);
    expect((await events('endorsement.revoked')).map((e) => e.data.endorsement.id)).toEqual([visiting.id]);
  });

  it('lists with filters, needs a key to read and an edit key to write', async () => {
    const all = (await ctx.request({ method: 'GET', url: '/api/endorsements', token: read })).json().data as Array<{
      id: number;
      revoked: boolean;
    }>;
    expect(all.map((e) => e.id)).toEqual([...all.map((e) => e.id)].sort((a, b) => a - b));
    const inactive = (await ctx.request({ method: 'GET', url: '/api/endorsements?active=false', token: read })).json().data;
    expect(inactive.map((e: { revoked: boolean }) => e.revoked)).toEqual([true]);
    expect((await ctx.request({ method: 'GET', url: '/api/endorsements?type=solo', token: read })).json().data).toHaveLength(1);
    expect((await ctx.request({ method: 'GET', url: `/api/endorsements/${all[0]!.id}`, token: read })).json()).toEqual(all[0]);
    expect((await ctx.request({ method: 'GET', url: '/api/endorsements' })).statusCode).toBe(401);
    expect((await ctx.request({ method: 'GET', url: '/api/endorsements?active=maybe', token: read })).statusCode).toBe(422);
    expect((await post({ user_id: CY, type: 'visiting', rating: 'S3', areas: ['Denmark'] }, read)).statusCode).toBe(403);
  });

  it('publishes endorsement.expired within a minute of the end, once, by the background worker', async () => {
    const solo = (await ctx.request({ method: 'GET', url: `/api/endorsements?user_id=${ADA}&type=solo&active=true`, token: read })).json()
      .data[0];
    const workers = ctx.services.workers;
    workers.start();
    try {
      ctx.setNow(NOW + 7 * DAY + 1000);
      workers.wake('endorsement-expiry');
      await workers.settled();
      await new Promise((r) => setTimeout(r, 50));
      await workers.settled();
      const expired = await events('endorsement.expired');
      expect(expired.map((e) => e.data.endorsement.id)).toEqual([solo.id]);
      // A second run finds nothing more to publish.
      workers.wake('endorsement-expiry');
      await workers.settled();
      expect(await events('endorsement.expired')).toHaveLength(1);
    } finally {
      await workers.stop(0);
    }
  });

  it('does not publish endorsement.expired for one whose end was moved later while the worker ran', async () => {
    const ends = NOW + 8 * DAY;
    const issue = async (user_id: number, validTo: number) => {
      const res = await post({ user_id, type: 'facility', rating: 'T1 EKCH TWR', valid_to: iso(validTo) });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { id: number }).id;
    };
    const moving = await issue(ADA, ends);
    const ending = await issue(BO, ends - 1000);
    // Another connection moves the first one's end later, and commits once the worker is under way.
    const other = openDatabase(ctx.databaseUrl);
    let commit!: () => void;
    const gate = new Promise<void>((r) => (commit = r));
    let updated!: () => void;
    const isUpdated = new Promise<void>((r) => (updated = r));
    const moved = other.kysely.connection().execute(async (conn) => {
      await sql`BEGIN`.execute(conn);
      await conn
        .updateTable('endorsements')
        .set({ valid_to: ends + 30 * DAY })
        .where('id', '=', moving)
        .execute();
      updated();
      await gate;
      await sql`COMMIT`.execute(conn);
    });
    try {
      await isUpdated;
      ctx.setNow(ends + 1000);
      const quiet = { info() {}, warn() {}, error() {} };
      const run = endorsementExpiryWorker(ctx.services).run({
        now: () => ends + 1000,
        signal: new AbortController().signal,
        log: quiet,
        lease: null,
        took() {},
      });
      await new Promise((r) => setTimeout(r, 300));
      commit();
      await moved;
      await run;
      const published = (await events('endorsement.expired')).map((e) => e.data.endorsement.id);
      expect(published).toContain(ending);
      expect(published).not.toContain(moving);
    } finally {
      commit();
      await other.close();
      ctx.setNow(NOW);
    }
  });
});

describe('concurrent issues of the same solo', () => {
  it('lets exactly one win', async () => {
    const ctx = await createTestContext({ now: NOW });
    try {
      await ctx.load(
        buildDivision({
          users: [buildUser({ rating: 'S2' })],
          positions: [buildPosition('EKCH_APP')],
          trainings: [buildTraining({ status: 1 })],
        }),
      );
      const token = await ctx.key('edit');
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          ctx.request({
            method: 'POST',
            url: '/api/endorsements',
            token,
            payload: { user_id: ADA, type: 'solo', positions: ['EKCH_APP'], valid_from: iso(NOW + i), valid_to: iso(NOW + DAY) },
          }),
        ),
      );
      expect(results.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    } finally {
      await ctx.close();
    }
  });
});
