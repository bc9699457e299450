import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../support/context.js';
import { buildPosition, buildUser } from '../../support/factories.js';

// Pinned clock: 2025-06-01 12:00:00 UTC.
const NOW = Date.UTC(2025, 5, 1, 12);
const DAY = 86_400_000;

const ROUTES = [
  '/api/roles',
  '/api/endorsements/masc',
  '/api/endorsements/training/solo',
  '/api/endorsements/training/s1',
  '/api/endorsements/examiner',
  '/api/endorsements/visiting',
];

const BASE = {
  areas: ['Sweden', 'Finland', 'Denmark'],
  positions: [
    buildPosition('EKCH_TWR', { required_facility: 'T1 EKCH TWR' }),
    buildPosition('EKCH_APP', { required_facility: 'APP EKCH' }),
    buildPosition('EFHK_TWR', { required_facility: 'T1 EFHK TWR' }),
    buildPosition('ESSA_TWR'),
  ],
  users: [
    buildUser({ id: 2005, first_name: 'Eva', last_name: 'Gran', rating: 'S1' }),
    buildUser({ id: 2001, rating: 'S3', atc_active_areas: { Denmark: true } }),
    buildUser({ id: 2002, first_name: 'Bo', last_name: 'Berg', rating: 'S2', atc_active_areas: { Denmark: false } }),
    buildUser({ id: 2003, first_name: 'Cai', last_name: 'Dahl', division: 'EUR', atc_active_areas: { Finland: true } }),
    buildUser({ id: 2004, first_name: 'Dag', last_name: 'Falk', division: 'EUR' }),
  ],
  roles: [
    { user_id: 2001, area: 'Sweden', role: 'Mentor' },
    { user_id: 2001, area: 'Denmark', role: 'Mentor' },
    { user_id: 2001, area: 'Denmark', role: 'Administrator' },
    { user_id: 2003, area: 'Finland', role: 'Moderator' },
    { user_id: 2002, area: 'Finland', role: 'Mentor' },
    { user_id: 2004, area: 'Denmark', role: 'Buddy' },
  ],
  endorsements: [
    // facility
    { user_id: 2001, type: 'facility', rating: 'T1 EKCH TWR', valid_from: '2024-01-01T00:00:00Z' },
    { user_id: 2001, type: 'masc', rating: 'APP EKCH', valid_from: '2024-02-01T00:00:00Z' },
    { user_id: 2003, type: 'facility', rating: 'T1 EFHK TWR', valid_from: '2024-01-01T00:00:00Z' },
    { user_id: 2002, type: 'facility', rating: 'T1 EKCH TWR', valid_from: '2024-01-01T00:00:00Z', revoked: true },
    { user_id: 2004, type: 'facility', rating: 'APP EKCH', valid_from: '2024-01-01T00:00:00Z', valid_to: '2025-05-01T00:00:00Z' },
    { user_id: 2005, type: 'facility', rating: 'T1 EKCH TWR', valid_from: '2025-07-01T00:00:00Z' },
    // solo
    { user_id: 2001, type: 'solo', positions: ['EKCH_APP'], valid_from: '2025-05-20T00:00:00Z', valid_to: '2025-06-20T00:00:00Z' },
    { user_id: 2002, type: 'solo', positions: ['EKCH_TWR'], valid_from: '2025-05-01T00:00:00Z', valid_to: '2025-05-29T00:00:00Z' },
    { user_id: 2004, type: 'solo', positions: ['EKCH_TWR'], valid_from: '2025-04-01T00:00:00Z', valid_to: '2025-05-12T00:00:00Z' },
    {
      user_id: 2005,
      type: 'solo',
      positions: ['EKCH_TWR', 'EKCH_APP'],
      valid_from: '2025-05-25T00:00:00Z',
      valid_to: '2025-07-01T00:00:00Z',
      revoked: true,
      revoked_at: '2025-06-01T06:00:00Z',
    },
    { user_id: 2002, type: 'solo', positions: ['EKCH_APP'], valid_from: '2025-06-10T00:00:00Z', valid_to: '2025-07-10T00:00:00Z' },
    // s1: one ended exactly 14 days ago (out), one 13 days 23 hours ago (in)
    { user_id: 2003, type: 's1', positions: ['EFHK_TWR'], valid_from: '2025-05-01T00:00:00Z', valid_to: null },
    { user_id: 2001, type: 's1', positions: ['EKCH_TWR'], valid_from: '2025-04-01T00:00:00Z', valid_to: '2025-05-18T12:00:00Z' },
    { user_id: 2002, type: 's1', positions: [], valid_from: '2025-04-01T00:00:00Z', valid_to: '2025-05-18T13:00:00Z' },
    // revoked at a time the import does not give: long ago, so out
    { user_id: 2004, type: 's1', positions: [], valid_from: '2025-05-01T00:00:00Z', valid_to: null, revoked: true },
    // examiner
    { user_id: 2001, type: 'examiner', rating: 'S3', areas: ['Sweden', 'Denmark'], valid_from: '2024-01-01T00:00:00Z' },
    { user_id: 2003, type: 'examiner', rating: 'C1', areas: ['Denmark'], valid_from: '2024-01-01T00:00:00Z' },
    { user_id: 2004, type: 'examiner', rating: 'C1', areas: ['Finland'], valid_from: '2024-01-01T00:00:00Z', revoked: true },
    // visiting
    { user_id: 2003, type: 'visiting', rating: 'C1', areas: ['Finland', 'Denmark'], valid_from: '2025-01-01T00:00:00Z' },
    { user_id: 2001, type: 'visiting', rating: 'S3', areas: ['Denmark'], valid_from: '2025-01-01T00:00:00Z' },
    {
      user_id: 2004,
      type: 'visiting',
      rating: 'C1',
      areas: ['Sweden'],
      valid_from: '2024-01-01T00:00:00Z',
      valid_to: '2025-01-01T00:00:00Z',
    },
  ],
};

// Live when first imported twenty days ago, then revoked: the import that first sees it revoked
// dates the revocation, so it is past the 14-day window of the solo list.
const REVOKED_LONG_AGO = {
  endorsements: [
    {
      user_id: 2003,
      type: 'solo',
      positions: ['EFHK_TWR'],
      valid_from: '2025-04-01T00:00:00Z',
      valid_to: '2025-08-01T00:00:00Z',
      revoked: false,
    },
  ],
};

async function division(): Promise<TestContext> {
  const ctx = await createTestContext({ env: { DIVISION: 'EUD' }, now: NOW - 20 * DAY });
  await ctx.load({ ...BASE, endorsements: [] });
  await ctx.load(REVOKED_LONG_AGO);
  await ctx.load({ endorsements: [{ ...REVOKED_LONG_AGO.endorsements[0], revoked: true }] });
  ctx.setNow(NOW);
  await ctx.load(BASE);
  return ctx;
}

describe('deprecated endpoints', () => {
  let ctx: TestContext;
  let read: string;
  // null: send no key at all.
  const get = (url: string, token: string | null = read) => ctx.request({ method: 'GET', url, token: token ?? undefined });

  beforeAll(async () => {
    ctx = await division();
    read = await ctx.key('read');
  });
  afterAll(() => ctx.close());

  it('GET /api/roles: mentors, moderators and admins with their areas', async () => {
    const res = await get('/api/roles');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: {
        mentors: [
          { id: 2001, fir: ['Denmark', 'Sweden'] },
          { id: 2002, fir: ['Finland'] },
        ],
        moderators: [{ id: 2003, fir: ['Finland'] }],
        admins: [{ id: 2001, fir: ['Denmark'] }],
      },
    });
  });

  it('GET /api/endorsements/masc: holders of active facility endorsements', async () => {
    const res = await get('/api/endorsements/masc');
    expect(res.json()).toEqual({
      data: [
        { user_id: 2001, user_atc_active: true, ratings: ['APP EKCH', 'T1 EKCH TWR'] },
        { user_id: 2003, user_atc_active: true, ratings: ['T1 EFHK TWR'] },
      ],
    });
  });

  it('GET /api/endorsements/training/solo: active ones plus those expired or revoked within 14 days', async () => {
    const res = await get('/api/endorsements/training/solo');
    expect(res.json()).toEqual({
      data: [
        {
          user_id: 2001,
          type: 'SOLO',
          valid_from: '2025-05-20T00:00:00.000000Z',
          valid_to: '2025-06-20T00:00:00.000000Z',
          expired: false,
          revoked: false,
          positions: ['EKCH_APP'],
        },
        {
          user_id: 2002,
          type: 'SOLO',
          valid_from: '2025-05-01T00:00:00.000000Z',
          valid_to: '2025-05-29T00:00:00.000000Z',
          expired: true,
          revoked: false,
          positions: ['EKCH_TWR'],
        },
        {
          user_id: 2005,
          type: 'SOLO',
          valid_from: '2025-05-25T00:00:00.000000Z',
          valid_to: '2025-07-01T00:00:00.000000Z',
          expired: false,
          revoked: true,
          positions: ['EKCH_APP', 'EKCH_TWR'],
        },
      ],
    });
  });

  it('GET /api/endorsements/training/s1: the 14-day window is exclusive at its far end', async () => {
    const res = await get('/api/endorsements/training/s1');
    expect(res.json()).toEqual({
      data: [
        {
          user_id: 2002,
          type: 'S1',
          valid_from: '2025-04-01T00:00:00.000000Z',
          valid_to: '2025-05-18T13:00:00.000000Z',
          expired: true,
          revoked: false,
          positions: [],
        },
        {
          user_id: 2003,
          type: 'S1',
          valid_from: '2025-05-01T00:00:00.000000Z',
          valid_to: null,
          expired: false,
          revoked: false,
          positions: ['EFHK_TWR'],
        },
      ],
    });
  });

  it('GET /api/endorsements/examiner: every area with its active examiners', async () => {
    const res = await get('/api/endorsements/examiner');
    expect(res.json()).toEqual({
      data: [
        {
          area: 'Denmark',
          examiners: [
            { user_id: 2001, first_name: 'Ada', rating: 'S3' },
            { user_id: 2003, first_name: 'Cai', rating: 'C1' },
          ],
        },
        { area: 'Finland', examiners: [] },
        { area: 'Sweden', examiners: [{ user_id: 2001, first_name: 'Ada', rating: 'S3' }] },
      ],
    });
  });

  it('GET /api/endorsements/visiting: active visiting endorsements with the facilities held per area', async () => {
    const res = await get('/api/endorsements/visiting');
    expect(res.json()).toEqual({
      data: [
        { user_id: 2001, first_name: 'Ada', rating: 'S3', areas: [{ name: 'Denmark', maes: ['APP EKCH', 'T1 EKCH TWR'] }] },
        {
          user_id: 2003,
          first_name: 'Cai',
          rating: 'C1',
          areas: [
            { name: 'Denmark', maes: [] },
            { name: 'Finland', maes: ['T1 EFHK TWR'] },
          ],
        },
      ],
    });
  });

  it('every deprecated route sends Deprecation and the successor Link, also on errors', async () => {
    for (const url of ROUTES) {
      for (const token of [read, null]) {
        const res = await get(url, token);
        expect(res.headers.deprecation).toBe('true');
        expect(res.headers.link).toBe('</api/users>; rel="successor-version"');
      }
    }
    // Not on the successor itself.
    expect((await get('/api/users?include=allUsers')).headers.deprecation).toBeUndefined();
  });

  it('auth: no key 401, read 200, edit 200, unknown key 401', async () => {
    const edit = await ctx.key('edit');
    const bogus = 'sector_0123456789abcdef_' + 'A'.repeat(43);
    for (const url of ROUTES) {
      const none = await get(url, null);
      expect(none.statusCode, url).toBe(401);
      expect(none.headers['www-authenticate']).toMatch(/^Bearer/);
      expect(none.json()).toEqual({ message: expect.any(String) });
      expect((await get(url, read)).statusCode, url).toBe(200);
      expect((await get(url, edit)).statusCode, url).toBe(200);
      expect((await get(url, bogus)).statusCode, url).toBe(401);
    }
  });

  it('OpenAPI marks exactly these operations deprecated', async () => {
    const doc = (await ctx.request({ method: 'GET', url: '/openapi.json' })).json();
    for (const url of ROUTES) expect(doc.paths[url].get.deprecated, url).toBe(true);
    expect(doc.paths['/api/users'].get.deprecated).toBeUndefined();
  });
});

describe('deprecated endpoints over time', () => {
  it('lists follow the clock', async () => {
    const ctx = await division();
    const token = await ctx.key('read');
    const data = async (url: string) => (await ctx.request({ method: 'GET', url, token })).json().data;

    // 2025-06-15: 2002's solo (ended 05-29) is past 14 days; 2005's revocation (06-01) is not;
    // 2002's second solo has started.
    ctx.setNow(Date.UTC(2025, 5, 15));
    expect(
      (await data('/api/endorsements/training/solo')).map((e: { user_id: number; valid_from: string }) => [e.user_id, e.valid_from]),
    ).toEqual([
      [2001, '2025-05-20T00:00:00.000000Z'],
      [2002, '2025-06-10T00:00:00.000000Z'],
      [2005, '2025-05-25T00:00:00.000000Z'],
    ]);

    // 2025-07-02: 2005's facility endorsement has started.
    ctx.setNow(Date.UTC(2025, 6, 2));
    expect(await data('/api/endorsements/masc')).toEqual([
      { user_id: 2001, user_atc_active: true, ratings: ['APP EKCH', 'T1 EKCH TWR'] },
      { user_id: 2003, user_atc_active: true, ratings: ['T1 EFHK TWR'] },
      { user_id: 2005, user_atc_active: false, ratings: ['T1 EKCH TWR'] },
    ]);
    await ctx.close();
  });
});
