import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import {
  buildEndorsement,
  buildPosition,
  buildRole,
  buildTraining,
  buildUser,
  SCANDINAVIA,
  type UserRecord,
} from '../../support/factories.js';

// Pinned clock: 2025-06-01 12:00:00 UTC.
const NOW = Date.UTC(2025, 5, 1, 12);

// The roster of a region: everyone in EMEA, in one of two divisions.
const member = (user: Partial<UserRecord>) => buildUser({ region: 'EMEA', division: 'EUR', subdivision: null, ...user });

const DIVISION_DATA = {
  areas: ['Sweden', 'Denmark', 'Finland'],
  positions: [buildPosition('EKCH_TWR', { required_facility: 'T1 EKCH TWR' }), buildPosition('EKCH_APP'), buildPosition('EFHK_TWR')],
  // Deliberately not in id order: the response must be sorted anyway.
  users: [
    member({ id: 1009, email: 'nine@example.org', first_name: 'Nina', last_name: 'Ek', rating: 'OBS' }),
    member({
      id: 1003,
      email: 'three@example.org',
      first_name: 'Tove',
      last_name: 'Aho',
      division: 'EUD',
      subdivision: 'FIN',
      atc_active_areas: { Finland: true },
    }),
    member({ id: 1001, email: 'one@example.org', rating: 'S3', ...SCANDINAVIA, atc_active_areas: { Denmark: true, Sweden: false } }),
    member({
      id: 1002,
      email: 'two@example.org',
      first_name: 'Bo',
      last_name: 'Berg',
      rating: 'S2',
      ...SCANDINAVIA,
      atc_active_areas: { Denmark: false },
    }),
    member({ id: 1004, email: 'four@example.org', first_name: 'Cai', last_name: 'Dahl', atc_active_areas: { Finland: true } }),
    member({ id: 1005, email: 'five@example.org', first_name: 'Dag', last_name: 'Falk', rating: 'I1', subdivision: 'SCA' }),
    member({ id: 1006, email: 'six@example.org', first_name: 'Eva', last_name: 'Gran', rating: 'S1' }),
    member({ id: 1007, email: 'seven@example.org', first_name: 'Finn', last_name: 'Holm', rating: 'S1' }),
    member({
      id: 1008,
      email: 'eight@example.org',
      first_name: 'Gro',
      last_name: 'Isak',
      rating: 'S3',
      atc_active_areas: { Sweden: true },
    }),
  ],
  endorsements: [
    buildEndorsement({ user_id: 1001, valid_from: '2024-02-04T15:18:44Z' }),
    { user_id: 1001, type: 'examiner', rating: 'S3', areas: ['Sweden', 'Denmark'], valid_from: '2024-01-01T00:00:00Z', valid_to: null },
    { user_id: 1001, type: 'solo', positions: ['EKCH_APP'], valid_from: '2025-05-20T00:00:00Z', valid_to: '2025-06-20T00:00:00Z' },
    { user_id: 1004, type: 'visiting', rating: 'C1', areas: ['Finland'], valid_from: '2025-01-01T00:00:00Z', valid_to: null },
    {
      user_id: 1004,
      type: 's1',
      positions: ['EFHK_TWR', 'EKCH_TWR'],
      valid_from: '2025-05-01T08:30:00.250Z',
      valid_to: '2025-07-01T00:00:00Z',
    },
    // Revoked: never active.
    {
      user_id: 1002,
      type: 'solo',
      positions: ['EKCH_TWR'],
      valid_from: '2025-05-01T00:00:00Z',
      valid_to: '2025-08-01T00:00:00Z',
      revoked: true,
    },
    // Expired an hour ago, starts tomorrow, revoked: none active now.
    {
      user_id: 1008,
      type: 'visiting',
      rating: 'S3',
      areas: ['Denmark'],
      valid_from: '2024-01-01T00:00:00Z',
      valid_to: '2025-06-01T11:00:00Z',
    },
    { user_id: 1008, type: 'examiner', rating: 'S3', areas: ['Finland'], valid_from: '2025-06-02T12:00:00Z', valid_to: null },
    buildEndorsement({ user_id: 1008, valid_from: '2024-01-01T00:00:00Z', revoked: true }),
  ],
  roles: [
    buildRole({ user_id: 1001 }),
    buildRole({ user_id: 1001, role: 'Administrator' }),
    buildRole({ user_id: 1005, area: 'Sweden' }),
    buildRole({ user_id: 1003, area: 'Finland', role: 'Buddy' }),
  ],
  trainings: [
    buildTraining({ user_id: 1006 }),
    buildTraining({
      user_id: 1006,
      area: 'Sweden',
      type: 'Refresh',
      status: -2,
      created_at: '2024-03-01T10:00:00Z',
      started_at: '2024-03-02T10:00:00Z',
    }),
    buildTraining({ user_id: 1007, area: 'Sweden', status: -1, created_at: '2024-05-01T10:00:00Z', started_at: '2024-05-02T10:00:00Z' }),
    buildTraining({
      user_id: 1001,
      area: 'Sweden',
      type: 'Fast-track',
      status: 3,
      created_at: '2025-02-01T09:00:00Z',
      started_at: '2025-02-10T09:30:00Z',
      ratings: ['C1', 'S3'],
    }),
    buildTraining({
      user_id: 1001,
      type: 'Transfer',
      status: 2,
      created_at: '2025-04-01T09:00:00Z',
      started_at: '2025-04-02T09:00:00Z',
      ratings: [],
    }),
  ],
};

const EMPTY_ENDORSEMENTS = { visiting: [], examiner: [], training: { solo: null, s1: null }, facility: [] };
const NO_ROLES = { Denmark: null, Finland: null, Sweden: null };

const ENDORSEMENTS_1001 = {
  visiting: [],
  examiner: [{ valid_from: '2024-01-01T00:00:00.000000Z', valid_to: null, rating: 'S3', areas: ['Denmark', 'Sweden'] }],
  training: {
    solo: [{ valid_from: '2025-05-20T00:00:00.000000Z', valid_to: '2025-06-20T00:00:00.000000Z', positions: ['EKCH_APP'] }],
    s1: null,
  },
  facility: [{ valid_from: '2024-02-04T15:18:44.000000Z', valid_to: null, rating: 'T1 EKCH TWR' }],
};
const ENDORSEMENTS_1004 = {
  visiting: [{ valid_from: '2025-01-01T00:00:00.000000Z', valid_to: null, rating: 'C1', areas: ['Finland'] }],
  examiner: [],
  training: {
    solo: null,
    s1: [{ valid_from: '2025-05-01T08:30:00.250000Z', valid_to: '2025-07-01T00:00:00.000000Z', positions: ['EFHK_TWR', 'EKCH_TWR'] }],
  },
  facility: [],
};
const TRAINING_1001 = [
  {
    area: 'Sweden',
    type: 'Fast-track',
    status: 3,
    status_description: 'Awaiting exam',
    created_at: '2025-02-01T09:00:00.000000Z',
    started_at: '2025-02-10T09:30:00.000000Z',
    ratings: ['S3', 'C1'],
  },
  {
    area: 'Denmark',
    type: 'Transfer',
    status: 2,
    status_description: 'Active training',
    created_at: '2025-04-01T09:00:00.000000Z',
    started_at: '2025-04-02T09:00:00.000000Z',
    ratings: [],
  },
];
const TRAINING_1006 = [
  {
    area: 'Denmark',
    type: 'Standard',
    status: 0,
    status_description: 'In queue',
    created_at: '2025-03-01T10:00:00.000000Z',
    started_at: null,
    ratings: ['S2'],
  },
];

async function division(env: Record<string, string> = { DIVISION: 'EUD' }): Promise<TestContext> {
  const ctx = await createTestContext({ env, now: NOW });
  await ctx.load(DIVISION_DATA);
  return ctx;
}

describe('GET /api/users', () => {
  let ctx: TestContext;
  let read: string;
  const get = async (query: string, headers: Record<string, string> = {}, token = read) =>
    ctx.request({ method: 'GET', url: `/api/users${query}`, token, headers });
  const ids = async (query: string) => {
    const res = await get(query);
    expect(res.statusCode).toBe(200);
    return (res.json() as Array<{ id: number }>).map((u) => u.id);
  };

  beforeAll(async () => {
    ctx = await division();
    read = await ctx.key('read');
  });
  afterAll(() => ctx.close());

  describe('selection', () => {
    it('allUsers alone: the members of DIVISION with exactly id, rating and atc_active, sorted by id', async () => {
      const res = await get('?include=allUsers');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual([
        { id: 1001, rating: 'S3', atc_active: true },
        { id: 1002, rating: 'S2', atc_active: false },
        { id: 1003, rating: 'C1', atc_active: true },
      ]);
    });

    it('endorsements alone: users with an active endorsement (expired, future and revoked ones do not count)', async () => {
      const res = await get('?include=endorsements');
      expect(res.json()).toEqual([
        { id: 1001, rating: 'S3', atc_active: true, endorsements: ENDORSEMENTS_1001 },
        { id: 1004, rating: 'C1', atc_active: true, endorsements: ENDORSEMENTS_1004 },
      ]);
    });

    it('roles alone: users with any role, with every area as a key', async () => {
      const res = await get('?include=roles');
      expect(res.json()).toEqual([
        { id: 1001, rating: 'S3', atc_active: true, roles: { Denmark: ['Administrator', 'Mentor'], Finland: null, Sweden: null } },
        { id: 1003, rating: 'C1', atc_active: true, roles: { Denmark: null, Finland: ['Buddy'], Sweden: null } },
        { id: 1005, rating: 'I1', atc_active: false, roles: { Denmark: null, Finland: null, Sweden: ['Mentor'] } },
      ]);
      // Keys in area-name order, names as stored.
      expect(Object.keys(res.json()[0].roles)).toEqual(['Denmark', 'Finland', 'Sweden']);
    });

    it('training alone: users with an open training, with only their open trainings', async () => {
      const res = await get('?include=training');
      expect(res.json()).toEqual([
        { id: 1001, rating: 'S3', atc_active: true, training: TRAINING_1001 },
        { id: 1006, rating: 'S1', atc_active: false, training: TRAINING_1006 },
      ]);
    });

    it('several selecting relations: the union, each relation field present for every returned user', async () => {
      const res = await get('?include=allUsers,training');
      expect(res.json()).toEqual([
        { id: 1001, rating: 'S3', atc_active: true, training: TRAINING_1001 },
        { id: 1002, rating: 'S2', atc_active: false, training: [] },
        { id: 1003, rating: 'C1', atc_active: true, training: [] },
        { id: 1006, rating: 'S1', atc_active: false, training: TRAINING_1006 },
      ]);
      const all = await get('?include=allUsers,endorsements,roles,training');
      const body = all.json() as Array<Record<string, unknown>>;
      expect(body.map((u) => u.id)).toEqual([1001, 1002, 1003, 1004, 1005, 1006]);
      for (const u of body) expect(Object.keys(u)).toEqual(['id', 'rating', 'atc_active', 'endorsements', 'roles', 'training']);
      expect(body[1]).toEqual({
        id: 1002,
        rating: 'S2',
        atc_active: false,
        endorsements: EMPTY_ENDORSEMENTS,
        roles: NO_ROLES,
        training: [],
      });
      expect(body[3]!.roles).toEqual(NO_ROLES);
      expect(body[4]!.endorsements).toEqual(EMPTY_ENDORSEMENTS);
    });

    it('without a selecting relation the list is empty, even with field relations', async () => {
      for (const query of ['', '?include=name', '?include=name,email,divisions,activeAreas', '?onlyAtcActive=true', '?include=']) {
        const res = await get(query);
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual([]);
      }
    });

    it('onlyAtcActive=true|1 keeps only users active in some area; false|0 changes nothing', async () => {
      expect(await ids('?include=allUsers,endorsements,roles,training')).toEqual([1001, 1002, 1003, 1004, 1005, 1006]);
      for (const v of ['true', '1']) {
        expect(await ids(`?include=allUsers,endorsements,roles,training&onlyAtcActive=${v}`)).toEqual([1001, 1003, 1004]);
        expect(await ids(`?include=roles&onlyAtcActive=${v}`)).toEqual([1001, 1003]);
        expect(await ids(`?include=training&onlyAtcActive=${v}`)).toEqual([1001]);
      }
      for (const v of ['false', '0']) {
        expect(await ids(`?include=allUsers,endorsements,roles,training&onlyAtcActive=${v}`)).toEqual([1001, 1002, 1003, 1004, 1005, 1006]);
      }
    });

    it('onlyAtcActive other than true/false/1/0 is 422 naming the field', async () => {
      for (const v of ['yes', 'TRUE', '2', '', 'on']) {
        const res = await get(`?include=allUsers&onlyAtcActive=${v}`);
        expect(res.statusCode).toBe(422);
        expect(res.json()).toEqual({
          message: expect.any(String),
          errors: { onlyAtcActive: [expect.stringMatching(/true, false, 1, 0/)] },
        });
      }
    });
  });

  describe('include syntaxes and validation', () => {
    const expected = [1001, 1002, 1003, 1005];
    it.each([
      ['include[]=allUsers&include[]=roles'],
      ['include[0]=allUsers&include[1]=roles'],
      ['include=allUsers&include=roles'],
      ['include=allUsers,roles'],
      ['include=roles,allUsers,roles'],
    ])('%s', async (query) => {
      const res = await get(`?${query}`);
      expect(res.statusCode).toBe(200);
      const body = res.json() as Array<Record<string, unknown>>;
      expect(body.map((u) => u.id)).toEqual(expected);
      for (const u of body) expect(Object.keys(u)).toEqual(['id', 'rating', 'atc_active', 'roles']);
    });

    it('a single include value (a string, not an array) works', async () => {
      expect(await ids('?include=roles')).toEqual([1001, 1003, 1005]);
      expect(await ids('?include[]=roles')).toEqual([1001, 1003, 1005]);
    });

    it('unknown relation names are 422 listing the valid ones; names are case-sensitive', async () => {
      for (const query of ['include=allUsers,bookings', 'include=AllUsers', 'include[]=Roles', 'include=allusers&include=name']) {
        const res = await get(`?${query}`);
        expect(res.statusCode).toBe(422);
        const body = res.json();
        expect(Object.keys(body.errors)).toEqual(['include']);
        expect(body.errors.include[0]).toContain('allUsers, endorsements, roles, training, name, email, divisions, activeAreas');
        expect(body.message).toBe(body.errors.include[0]);
      }
      const named = (await get('?include=allUsers,bookings')).json();
      expect(named.errors.include[0]).toContain('"bookings"');
    });

    it('an include that is not a list of names is 422', async () => {
      const res = await get('?include[a][b]=allUsers');
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toHaveProperty('include');
    });
  });

  describe('field relations', () => {
    it('name, email and divisions add exactly their fields, in the documented order', async () => {
      const res = await get('?include=allUsers,divisions,email,name');
      const body = res.json();
      expect(body[0]).toEqual({
        id: 1001,
        email: 'one@example.org',
        first_name: 'Ada',
        last_name: 'Lind',
        rating: 'S3',
        region: 'EMEA',
        division: 'EUD',
        subdivision: 'SCA',
        atc_active: true,
      });
      expect(Object.keys(body[0])).toEqual([
        'id',
        'email',
        'first_name',
        'last_name',
        'rating',
        'region',
        'division',
        'subdivision',
        'atc_active',
      ]);
      expect(Object.keys((await get('?include=allUsers,name')).json()[0])).toEqual([
        'id',
        'first_name',
        'last_name',
        'rating',
        'atc_active',
      ]);
      expect(Object.keys((await get('?include=allUsers,email')).json()[0])).toEqual(['id', 'email', 'rating', 'atc_active']);
      expect((await get('?include=allUsers,divisions')).json()[2]).toEqual({
        id: 1003,
        rating: 'C1',
        region: 'EMEA',
        division: 'EUD',
        subdivision: 'FIN',
        atc_active: true,
      });
    });

    it('activeAreas adds every area, lower-case name -> active', async () => {
      const res = await get('?include=allUsers,activeAreas');
      expect(res.json()).toEqual([
        { id: 1001, rating: 'S3', atc_active: true, atc_active_areas: { denmark: true, finland: false, sweden: false } },
        { id: 1002, rating: 'S2', atc_active: false, atc_active_areas: { denmark: false, finland: false, sweden: false } },
        { id: 1003, rating: 'C1', atc_active: true, atc_active_areas: { denmark: false, finland: true, sweden: false } },
      ]);
    });

    it('every relation at once', async () => {
      const res = await get('?include=allUsers,endorsements,roles,training,name,email,divisions,activeAreas');
      const body = res.json();
      expect(body).toHaveLength(6);
      expect(body[0]).toEqual({
        id: 1001,
        email: 'one@example.org',
        first_name: 'Ada',
        last_name: 'Lind',
        rating: 'S3',
        region: 'EMEA',
        division: 'EUD',
        subdivision: 'SCA',
        atc_active: true,
        atc_active_areas: { denmark: true, finland: false, sweden: false },
        endorsements: ENDORSEMENTS_1001,
        roles: { Denmark: ['Administrator', 'Mentor'], Finland: null, Sweden: null },
        training: TRAINING_1001,
      });
      expect(Object.keys(body[5])).toEqual([
        'id',
        'email',
        'first_name',
        'last_name',
        'rating',
        'region',
        'division',
        'subdivision',
        'atc_active',
        'atc_active_areas',
        'endorsements',
        'roles',
        'training',
      ]);
    });
  });

  describe('variants', () => {
    it('older variant (header): masc replaces facility', async () => {
      const res = await get('?include=endorsements', { 'api-variant': 'older' });
      expect(res.statusCode).toBe(200);
      const [first] = res.json();
      const { facility, ...rest } = ENDORSEMENTS_1001;
      expect(first.endorsements).toEqual({ ...rest, masc: facility });
      expect(Object.keys(first.endorsements)).toEqual(['visiting', 'examiner', 'training', 'masc']);
      expect(Object.keys((await get('?include=endorsements')).json()[0].endorsements)).toEqual([
        'visiting',
        'examiner',
        'training',
        'facility',
      ]);
    });

    it('older variant: activeAreas is not a relation (422, listing the valid ones without it)', async () => {
      const res = await get('?include=allUsers,activeAreas', { 'api-variant': 'older' });
      expect(res.statusCode).toBe(422);
      const message = res.json().errors.include[0] as string;
      expect(message).toContain('"activeAreas"');
      expect(message).toContain('allUsers, endorsements, roles, training, name, email, divisions.');
    });

    it('a key pinned to older selects it; the header wins over the key', async () => {
      const older = await ctx.key('read', { variant: 'older' });
      const pinned = await get('?include=endorsements', {}, older);
      expect(pinned.json()[0].endorsements).toHaveProperty('masc');
      expect(pinned.json()[0].endorsements).not.toHaveProperty('facility');
      expect((await get('?include=allUsers,activeAreas', {}, older)).statusCode).toBe(422);

      const overridden = await get('?include=endorsements', { 'api-variant': 'newer' }, older);
      expect(overridden.json()[0].endorsements).toEqual(ENDORSEMENTS_1001);
      expect((await get('?include=allUsers,activeAreas', { 'api-variant': 'newer' }, older)).statusCode).toBe(200);
    });

    it('a bad Api-Variant header is 400', async () => {
      for (const v of ['oldest', 'Older', '']) {
        const res = await get('?include=allUsers', { 'api-variant': v });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ message: expect.stringContaining('Api-Variant') });
      }
    });
  });

  describe('auth', () => {
    it('no key 401, read 200, edit 200, unknown key 401', async () => {
      const none = await ctx.request({ method: 'GET', url: '/api/users?include=allUsers' });
      expect(none.statusCode).toBe(401);
      expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(none.json()).toEqual({ message: expect.any(String) });
      expect((await get('?include=allUsers')).statusCode).toBe(200);
      expect((await get('?include=allUsers', {}, await ctx.key('edit'))).statusCode).toBe(200);
      const bad = await get('?include=allUsers', {}, 'sector_0123456789abcdef_' + 'A'.repeat(43));
      expect(bad.statusCode).toBe(401);
    });
  });
});

describe('GET /api/users over time', () => {
  it('follows the clock: endorsements start and end, expired and future ones are not active', async () => {
    const ctx = await division();
    const token = await ctx.key('read');
    const endorsed = async () =>
      (await ctx.request({ method: 'GET', url: '/api/users?include=endorsements', token })).json() as Array<{
        id: number;
        endorsements: any;
      }>;

    let body = await endorsed();
    expect(body.map((u) => u.id)).toEqual([1001, 1004]);

    // 1008's visiting endorsement ended at 11:00: half an hour before, it was active.
    ctx.setNow(Date.UTC(2025, 5, 1, 10, 30));
    body = await endorsed();
    expect(body.map((u) => u.id)).toEqual([1001, 1004, 1008]);
    expect(body[2]!.endorsements).toEqual({
      visiting: [{ valid_from: '2024-01-01T00:00:00.000000Z', valid_to: '2025-06-01T11:00:00.000000Z', rating: 'S3', areas: ['Denmark'] }],
      examiner: [],
      training: { solo: null, s1: null },
      facility: [],
    });

    // valid_to is exclusive: at exactly 11:00 it has ended.
    ctx.setNow(Date.UTC(2025, 5, 1, 11));
    expect((await endorsed()).map((u) => u.id)).toEqual([1001, 1004]);

    // valid_from is inclusive: at exactly 2025-06-02 12:00 the examiner endorsement starts.
    ctx.setNow(Date.UTC(2025, 5, 2, 12));
    body = await endorsed();
    expect(body.map((u) => u.id)).toEqual([1001, 1004, 1008]);
    expect(body[2]!.endorsements.examiner).toEqual([
      { valid_from: '2025-06-02T12:00:00.000000Z', valid_to: null, rating: 'S3', areas: ['Finland'] },
    ]);
    expect(body[2]!.endorsements.visiting).toEqual([]);

    // After 1001's solo ends, its value is null again.
    ctx.setNow(Date.UTC(2025, 5, 25));
    body = await endorsed();
    expect(body[0]!.endorsements.training).toEqual({ solo: null, s1: null });

    // And back: the earlier response comes back exactly.
    ctx.setNow(NOW);
    expect((await endorsed()).map((u) => u.id)).toEqual([1001, 1004]);
    await ctx.close();
  });

  it('reflects data changes at once', async () => {
    const ctx = await division();
    const token = await ctx.key('read');
    const before = await ctx.request({ method: 'GET', url: '/api/users?include=roles', token });
    await ctx.load({ roles: [{ user_id: 1009, area: 'Sweden', role: 'Moderator' }] });
    const after = await ctx.request({ method: 'GET', url: '/api/users?include=roles', token });
    expect((after.json() as Array<{ id: number }>).map((u) => u.id)).toEqual([1001, 1003, 1005, 1009]);
    expect(after.headers.etag).not.toBe(before.headers.etag);
    // The unchanged list responds to If-None-Match with 304.
    const again = await ctx.request({
      method: 'GET',
      url: '/api/users?include=roles',
      token,
      headers: { 'if-none-match': after.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    await ctx.close();
  });
});

describe('GET /api/users membership (allUsers)', () => {
  const members = async (env: Record<string, string>) => {
    const ctx = await division(env);
    const res = await ctx.request({ method: 'GET', url: '/api/users?include=allUsers', token: await ctx.key('read') });
    await ctx.close();
    return (res.json() as Array<{ id: number }>).map((u) => u.id);
  };

  it('DIVISION only: users of that division', async () => {
    expect(await members({ DIVISION: 'EUD' })).toEqual([1001, 1002, 1003]);
    expect(await members({ DIVISION: 'EUR' })).toEqual([1004, 1005, 1006, 1007, 1008, 1009]);
  });

  it('SUBDIVISIONS set: users whose subdivision is listed, whatever their division', async () => {
    expect(await members({ DIVISION: 'EUD', SUBDIVISIONS: 'SCA' })).toEqual([1001, 1002, 1005]);
    expect(await members({ DIVISION: 'EUD', SUBDIVISIONS: 'SCA,FIN' })).toEqual([1001, 1002, 1003, 1005]);
    expect(await members({ SUBDIVISIONS: 'FIN' })).toEqual([1003]);
  });

  it('neither set: every user', async () => {
    expect(await members({})).toEqual([1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009]);
  });

  it('onlyAtcActive applies to members too', async () => {
    const ctx = await division({});
    const res = await ctx.request({ method: 'GET', url: '/api/users?include=allUsers&onlyAtcActive=1', token: await ctx.key('read') });
    expect((res.json() as Array<{ id: number }>).map((u) => u.id)).toEqual([1001, 1003, 1004, 1008]);
    await ctx.close();
  });
});

describe('GET /api/users is set-based', () => {
  function generated(count: number) {
    const areas = ['Denmark', 'Finland', 'Sweden'];
    const positions = areas.map((area, i) => ({
      callsign: `EK${'ABC'[i]}_TWR`,
      name: `${area} Tower`,
      frequency: '118.100',
      area,
      required_facility: `F${i}`,
    }));
    const users = [];
    const endorsements = [];
    const roles = [];
    const trainings = [];
    for (let i = 0; i < count; i++) {
      const id = 100_000 + i;
      users.push({
        id,
        email: `u${i}@example.org`,
        first_name: `F${i}`,
        last_name: `L${i}`,
        rating: 'S2',
        division: 'EUD',
        subdivision: 'SCA',
        atc_active_areas: { [areas[i % 3]!]: i % 2 === 0 },
      });
      endorsements.push({ user_id: id, type: 'visiting', rating: 'S3', areas: [areas[i % 3]], valid_from: '2025-01-01T00:00:00Z' });
      endorsements.push({ user_id: id, type: 'facility', rating: `F${i % 3}`, valid_from: '2025-01-02T00:00:00Z' });
      endorsements.push({
        user_id: id,
        type: 'solo',
        positions: [positions[i % 3]!.callsign],
        valid_from: '2025-01-03T00:00:00Z',
        valid_to: '2025-12-01T00:00:00Z',
      });
      if (i % 3 === 0) roles.push({ user_id: id, area: areas[i % 3], role: 'Mentor' });
      if (i % 4 === 0)
        trainings.push({
          user_id: id,
          area: areas[i % 3],
          type: 'Standard',
          status: i % 8 === 0 ? 1 : -1,
          created_at: '2025-02-01T00:00:00Z',
          ratings: ['S2', 'S3'],
        });
    }
    return { areas, positions, users, endorsements, roles, trainings };
  }

  it('uses as many SQL statements for 3000 users as for 10, all relations included', async () => {
    const url = '/api/users?include=allUsers,endorsements,roles,training,name,email,divisions,activeAreas';
    const statements = async (count: number) => {
      const ctx = await createTestContext({ env: { DIVISION: 'EUD' }, now: NOW });
      await ctx.load(generated(count));
      const token = await ctx.key('read');
      await ctx.request({ method: 'GET', url: '/api/users?include=name', token }); // warms the key cache
      ctx.resetQueries();
      const res = await ctx.request({ method: 'GET', url, token });
      // Statements that read data: the BEGIN and COMMIT around the build's snapshot are not counted.
      const n = ctx.statements().filter((sql) => !/^\s*(begin|commit|start transaction)\b/i.test(sql)).length;
      expect(res.statusCode).toBe(200);
      const body = res.json() as Array<{ id: number; endorsements: { visiting: unknown[] }; training: unknown[] }>;
      expect(body).toHaveLength(count);
      expect(body.every((u) => u.endorsements.visiting.length === 1)).toBe(true);
      expect(body.filter((u) => u.training.length > 0)).toHaveLength(Math.ceil(count / 8));
      await ctx.close();
      return n;
    };
    const small = await statements(10);
    const large = await statements(3000);
    expect(small).toBeGreaterThan(0);
    expect(large).toBe(small);
    // One statement per relation family, a handful in all.
    expect(small).toBeLessThanOrEqual(12);
  });
});
