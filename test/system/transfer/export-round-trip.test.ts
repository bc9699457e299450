import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { migrateToLatest } from '../../../src/core/db/migrate.js';
import { buildDemoDivision } from '../../../src/features/demo/division.js';
import { RATINGS } from '../../../src/features/members/domain/ratings.js';
import { isoMicros } from '../../../src/core/domain/time.js';
import { createTestContext, freshDatabaseUrl, freshSchemaName, tempDir, TEST_DIALECT, type TestContext } from '../../support/context.js';
import { ALL_TABLES, readDatabase, tableRows } from '../../support/db-state.js';
import { runCli, startServer } from '../../support/processes.js';
import { createKey } from '../../support/seed.js';

// Hostile text: combining marks, astral symbols, a ZWJ sequence, bidi controls, zero-width space,
// quotes, backslashes, a line break, characters JSON escapes.
const AREA_A = 'Ísland ☃ e\u0301';
const AREA_B = 'Zürich \u202eRTL\u202c';
const NAME = 'Zoë "Q" \\ 𝔘𝔫𝔦 👩\u200d✈️\u200b</script>\nline';
const ZOE = 99000001;
const YAN = 99000002;

const EXTRA = {
  areas: [AREA_A, AREA_B],
  users: [
    {
      id: ZOE,
      email: 'zoe+tag@example.org',
      first_name: NAME,
      last_name: 'Ø',
      rating: 'S1',
      region: null,
      division: 'EUD',
      subdivision: null,
      atc_active_areas: { [AREA_A]: true, [AREA_B]: false },
      atc_grace_start: { [AREA_A]: '2025-04-04T04:04:04.004Z' },
      last_login: '2025-05-05T05:05:05.5+02:00',
    },
    // Active with no grace (as activity counted from sessions keeps it): a second import must not start one.
    {
      id: YAN,
      email: null,
      first_name: 'Yan',
      last_name: '李',
      rating: 'C1',
      division: 'XYZ',
      atc_active_areas: { [AREA_B]: true },
      atc_grace_start: { [AREA_B]: null },
    },
  ],
  positions: [
    { callsign: 'BIRK_APP', name: 'Reykjavík Approach ✈', frequency: '119.000', area: AREA_A, rating: 'S3', required_facility: null },
    { callsign: 'BIRK_TWR', name: 'Tower \u200b', frequency: '118.300', area: null, rating: 'S1', required_facility: 'T1 BIRK' },
  ],
  endorsements: [
    {
      user_id: ZOE,
      type: 'visiting',
      rating: 'C1',
      areas: [AREA_B, AREA_A],
      valid_from: '2025-01-01T00:00:00.123Z',
      valid_to: '2025-06-01T00:00:00Z',
      revoked: true,
      revoked_at: '2025-03-03T03:03:03.456Z',
      issued_by: YAN,
    },
    {
      user_id: ZOE,
      type: 'solo',
      positions: ['BIRK_APP'],
      valid_from: '2025-02-01T00:00:00Z',
      valid_to: null,
      revoked: true,
      revoked_at: null,
    },
    { user_id: YAN, type: 'facility', rating: 'T1 BIRK', valid_from: '2024-01-01T00:00:00Z', valid_to: null },
  ],
  roles: [{ user_id: YAN, area: AREA_B, role: 'Mentör 🎧' }],
  trainings: [
    {
      user_id: ZOE,
      area: AREA_A,
      type: 'Refresh',
      status: 2,
      created_at: '2025-03-01T10:00:00.999Z',
      started_at: '2025-03-02T00:00:00Z',
      ratings: ['T1 BIRK', 'S3', 'Ä facility', 'S2'],
      closed_at: '2025-09-09T09:09:09.009Z',
      closed_reason: NAME,
      motivation: `Why: ${NAME}`,
      experience: 4,
      english_only: true,
      paused_at: '2025-08-08T08:08:08Z',
      mentors: [YAN],
      // Two on one day, in the order written (not by content): the export keeps it.
      reports: [
        {
          report_date: '2025-04-01',
          content: 'Zweite 📝',
          improve: null,
          position: null,
          draft: false,
          author_id: null,
          created_at: '2025-04-01T12:00:00Z',
        },
        {
          report_date: '2025-04-01',
          content: NAME,
          improve: 'Phraseology ✈',
          position: 'birk_app',
          draft: true,
          author_id: YAN,
          created_at: '2025-04-01T10:00:00Z',
          updated_at: '2025-04-02T10:00:00.5Z',
        },
      ],
      examinations: [
        { examination_date: '2025-07-07', position: 'birk_app', examiner_id: YAN, result: 'PASSED', created_at: '2025-07-07T15:00:00Z' },
        // Planned (no result), at a time, with two examiners (§20).
        {
          examination_date: '2025-08-01',
          start: '18:30',
          position: 'BIRK_APP',
          examiners: [YAN, ZOE],
          created_at: '2025-07-08T10:00:00Z',
          updated_at: '2025-07-09T10:00:00Z',
        },
      ],
      timeline: [
        {
          at: '2025-03-01T10:00:00.999Z',
          actor: 'cli',
          actor_name: null,
          action: 'created',
          detail: { type: 'Refresh', ratings: ['S2', 'S3'] },
        },
        {
          at: '2025-03-01T10:00:00.999Z',
          actor: `member:${YAN}`,
          actor_name: NAME,
          action: 'note',
          detail: { text: NAME, n: 1.5, list: [true, null] },
        },
      ],
    },
    // Facilities in their own list: one spelled like a rating code stays a facility.
    {
      user_id: YAN,
      area: AREA_B,
      type: 'Standard',
      status: 0,
      created_at: '2025-10-10T10:10:10Z',
      ratings: ['C1'],
      facilities: ['S3', 'T1 BIRK'],
    },
  ],
  bookings: [
    {
      id: 1_900_000_000,
      user_id: YAN,
      callsign: 'BIRK_TWR',
      time_start: '2030-01-01 10:00:00',
      time_end: '2030-01-01 11:00:00',
      tag: 3,
      source: 'DISCORD',
      deleted: true,
      network_booking: 'net-42 ✈',
    },
  ],
};

// Stored columns no import field set before (Zoë's training, visiting endorsement and user row).
const LOSSLESS = {
  training: {
    paused_ms: 3_600_123,
    queue_wait_ms: 86_400_456,
    interest_confirmed_at: Date.UTC(2025, 5, 6, 7, 8, 9, 10),
    interest_deadline: Date.UTC(2025, 6, 6, 7, 8, 9, 11),
  },
  endorsement: { created_at: Date.UTC(2024, 11, 24, 12, 0, 0, 1), expiry_published_at: Date.UTC(2025, 5, 1, 0, 0, 30, 2) },
  user: { created_at: Date.UTC(2020, 0, 2, 3, 4, 5, 6), updated_at: Date.UTC(2025, 1, 2, 3, 4, 5, 7) },
};

/** The stored columns a lossless copy keeps, by natural key (ids and area ids may differ between copies). */
function storedColumns(url: string) {
  return readDatabase(url, async (db) => ({
    users: await db.selectFrom('users').select(['id', 'created_at', 'updated_at']).orderBy('id').execute(),
    endorsements: await db
      .selectFrom('endorsements')
      .select(['user_id', 'type', 'valid_from', 'created_at', 'expiry_published_at'])
      .orderBy('user_id')
      .orderBy('type')
      .orderBy('valid_from')
      .execute(),
    trainings: await db
      .selectFrom('trainings')
      .innerJoin('areas', 'areas.id', 'trainings.area_id')
      .select(['user_id', 'areas.name', 'created_at', 'paused_ms', 'queue_wait_ms', 'interest_confirmed_at', 'interest_deadline'])
      .orderBy('user_id')
      .orderBy('created_at')
      .execute(),
    facilities: (
      await db
        .selectFrom('training_facilities')
        .innerJoin('trainings', 'trainings.id', 'training_facilities.training_id')
        .select(['trainings.user_id', 'trainings.created_at', 'training_facilities.name'])
        .execute()
    ).sort((a, b) => a.user_id - b.user_id || a.created_at - b.created_at || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    ratings: await db
      .selectFrom('training_ratings')
      .innerJoin('trainings', 'trainings.id', 'training_ratings.training_id')
      .select(['trainings.user_id', 'trainings.created_at', 'training_ratings.rating'])
      .orderBy('trainings.user_id')
      .orderBy('trainings.created_at')
      .orderBy('training_ratings.rating')
      .execute(),
    bookings: await db.selectFrom('bookings').select(['id', 'revision']).orderBy('id').execute(),
  }));
}

// Each test runs several CLI processes and servers: on a loaded machine that takes a while.
const SLOW_MS = 180_000;

describe('export', () => {
  let ctx: TestContext;
  let dir: string;
  let fileA: string;
  let textA: string;
  /** When the test's division was loaded: the time of rows the import created without their own. */
  let loadedAt: string;

  beforeAll(async () => {
    ctx = await createTestContext();
    dir = tempDir();
    const env = { DATABASE_URL: ctx.databaseUrl };
    loadedAt = isoMicros(ctx.services.clock());
    // The division `seed:demo --seed 7` loads, loaded in this process.
    await ctx.load(buildDemoDivision({ now: ctx.services.clock(), seed: 7 }));
    await ctx.load(EXTRA);
    // Changes through the API: forced training (an S1 booker on an S3 position), an exam, a
    // deletion and an update, so the export carries what only the API makes.
    const key = await ctx.key('edit');
    const create = async (payload: Record<string, unknown>) => {
      const res = await ctx.request({ method: 'POST', url: '/api/bookings/create', token: key, payload });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().booking.id as number;
    };
    await create({ cid: ZOE, date: '02/02/2030', start_at: '10:00', end_at: '11:30', position: 'BIRK_APP' });
    await create({ cid: YAN, date: '02/02/2030', start_at: '10:00', end_at: '11:00', position: 'BIRK_TWR', tag: 2, source: 'ops-tool' });
    const gone = await create({ cid: YAN, date: '03/02/2030', start_at: '10:00', end_at: '11:00', position: 'BIRK_TWR' });
    expect((await ctx.request({ method: 'DELETE', url: `/api/bookings/${gone}`, token: key })).statusCode).toBe(200);
    const moved = await create({ cid: YAN, date: '04/02/2030', start_at: '10:00', end_at: '11:00', position: 'BIRK_APP' });
    expect(
      (await ctx.request({ method: 'PATCH', url: `/api/bookings/${moved}`, token: key, payload: { end_at: '12:00', tag: 1 } })).statusCode,
    ).toBe(200);

    // What only Sector's own work sets (pauses, the queue, interest checks, published expiries, the
    // rows' own times): set in the database, as no import file could set them before.
    await readDatabase(ctx.databaseUrl, async (db) => {
      await db.updateTable('trainings').set(LOSSLESS.training).where('user_id', '=', ZOE).execute();
      await db.updateTable('endorsements').set(LOSSLESS.endorsement).where('user_id', '=', ZOE).where('type', '=', 'visiting').execute();
      await db.updateTable('users').set(LOSSLESS.user).where('id', '=', ZOE).execute();
    });

    fileA = path.join(dir, 'a.json');
    const exported = runCli(['export', fileA], env);
    expect(exported.code, exported.stderr).toBe(0);
    textA = fs.readFileSync(fileA, 'utf8');
  }, SLOW_MS);
  afterAll(() => ctx.close());

  it(
    'writes everything, deleted bookings and revoked endorsements included, with the exact values; stdout gives the same bytes',
    { timeout: SLOW_MS },
    () => {
      const stdout = runCli(['export'], { DATABASE_URL: ctx.databaseUrl });
      expect(stdout.code).toBe(0);
      expect(stdout.stdout).toBe(textA);
      expect(textA.endsWith('}\n')).toBe(true);
      expect(textA).not.toContain('apikey');
      const doc = JSON.parse(textA);
      expect(Object.keys(doc)).toEqual([
        'areas',
        'users',
        'positions',
        'endorsements',
        'roles',
        'trainings',
        'bookings',
        'tasks',
        'feedback',
        'votes',
        'sweatbox',
      ]);
      expect(doc.users.length).toBeGreaterThanOrEqual(302);
      expect(doc.users.find((u: { id: number }) => u.id === ZOE)).toEqual({
        ...EXTRA.users[0],
        last_name: 'Ø',
        atc_active_areas: { [AREA_B]: false, [AREA_A]: true },
        atc_grace_start: { [AREA_A]: '2025-04-04T04:04:04.004000Z' },
        last_login: '2025-05-05T03:05:05.500000Z',
        created_at: isoMicros(LOSSLESS.user.created_at),
        updated_at: isoMicros(LOSSLESS.user.updated_at),
      });
      // Keys as the import names them (src/features/transfer/import/users.ts), in its order; nothing set is null or empty.
      expect(doc.users.find((u: { id: number }) => u.id === YAN)).toEqual({
        id: YAN,
        email: null,
        first_name: 'Yan',
        last_name: '李',
        rating: 'C1',
        region: null,
        division: 'XYZ',
        subdivision: null,
        atc_active_areas: { [AREA_B]: true },
        atc_grace_start: { [AREA_B]: null },
        last_login: null,
        created_at: loadedAt,
        updated_at: loadedAt,
      });
      expect(doc.endorsements.filter((e: { user_id: number }) => e.user_id === ZOE)).toEqual([
        {
          user_id: ZOE,
          type: 'solo',
          rating: null,
          areas: [],
          positions: ['BIRK_APP'],
          valid_from: '2025-02-01T00:00:00.000000Z',
          valid_to: null,
          revoked: true,
          revoked_at: null,
          issued_by: null,
          created_at: loadedAt,
          expiry_published_at: null,
        },
        {
          user_id: ZOE,
          type: 'visiting',
          rating: 'C1',
          areas: [AREA_B, AREA_A].sort(),
          positions: [],
          valid_from: '2025-01-01T00:00:00.123000Z',
          valid_to: '2025-06-01T00:00:00.000000Z',
          revoked: true,
          revoked_at: '2025-03-03T03:03:03.456000Z',
          issued_by: YAN,
          created_at: '2024-12-24T12:00:00.001000Z',
          expiry_published_at: '2025-06-01T00:00:30.002000Z',
        },
      ]);
      expect(doc.trainings.filter((t: { user_id: number }) => t.user_id === ZOE)).toEqual([
        {
          user_id: ZOE,
          area: AREA_A,
          type: 'Refresh',
          status: 2,
          created_at: '2025-03-01T10:00:00.999000Z',
          started_at: '2025-03-02T00:00:00.000000Z',
          // Rating codes by rating, and facility names by code unit (from the older mixed form).
          ratings: ['S2', 'S3'],
          facilities: ['T1 BIRK', 'Ä facility'],
          closed_at: '2025-09-09T09:09:09.009000Z',
          closed_reason: NAME,
          motivation: `Why: ${NAME}`,
          experience: 4,
          english_only: true,
          paused_at: '2025-08-08T08:08:08.000000Z',
          paused_ms: 3_600_123,
          queue_wait_ms: 86_400_456,
          interest_confirmed_at: '2025-06-06T07:08:09.010000Z',
          interest_deadline: '2025-07-06T07:08:09.011000Z',
          mentors: [YAN],
          reports: [
            {
              report_date: '2025-04-01',
              content: 'Zweite 📝',
              improve: null,
              position: null,
              draft: false,
              author_id: null,
              created_at: '2025-04-01T12:00:00.000000Z',
              updated_at: '2025-04-01T12:00:00.000000Z',
            },
            {
              report_date: '2025-04-01',
              content: NAME,
              improve: 'Phraseology ✈',
              position: 'BIRK_APP',
              draft: true,
              author_id: YAN,
              created_at: '2025-04-01T10:00:00.000000Z',
              updated_at: '2025-04-02T10:00:00.500000Z',
            },
          ],
          examinations: [
            {
              examination_date: '2025-07-07',
              start: null,
              position: 'BIRK_APP',
              examiner_id: YAN,
              examiners: [YAN],
              result: 'PASSED',
              created_at: '2025-07-07T15:00:00.000000Z',
              updated_at: '2025-07-07T15:00:00.000000Z',
            },
            {
              examination_date: '2025-08-01',
              start: '18:30',
              position: 'BIRK_APP',
              examiner_id: YAN,
              examiners: [YAN, ZOE],
              result: null,
              created_at: '2025-07-08T10:00:00.000000Z',
              updated_at: '2025-07-09T10:00:00.000000Z',
            },
          ],
          timeline: [
            {
              at: '2025-03-01T10:00:00.999000Z',
              actor: 'cli',
              actor_name: null,
              action: 'created',
              detail: { type: 'Refresh', ratings: ['S2', 'S3'] },
            },
            {
              at: '2025-03-01T10:00:00.999000Z',
              actor: `member:${YAN}`,
              actor_name: NAME,
              action: 'note',
              detail: { text: NAME, n: 1.5, list: [true, null] },
            },
          ],
        },
      ]);
      expect(doc.trainings.find((t: { user_id: number }) => t.user_id === YAN)).toMatchObject({
        ratings: ['C1'],
        facilities: ['S3', 'T1 BIRK'],
        paused_ms: 0,
        queue_wait_ms: null,
        interest_confirmed_at: null,
        interest_deadline: null,
      });
      const bookings = doc.bookings as Array<Record<string, unknown>>;
      expect(bookings.map((b) => b.id)).toEqual([...bookings.map((b) => b.id as number)].sort((a, b) => a - b));
      expect(bookings.find((b) => b.id === 1_900_000_000)).toMatchObject({
        deleted: true,
        event: true,
        source: 'DISCORD',
        network_booking: 'net-42 ✈',
      });
      expect(bookings.find((b) => b.callsign === 'BIRK_APP' && b.user_id === ZOE)).toMatchObject({
        training: true,
        training_forced: true,
        deleted: false,
        source: 'CC',
      });
      expect(bookings.find((b) => b.user_id === YAN && b.time_start === '2030-02-02 10:00:00')).toMatchObject({
        exam: true,
        training: false,
        source: 'OPS-TOOL',
      });
      expect(bookings.find((b) => b.user_id === YAN && b.time_start === '2030-02-03 10:00:00')).toMatchObject({ deleted: true });
      const moved = bookings.find((b) => b.time_start === '2030-02-04 10:00:00')!;
      expect(moved).toMatchObject({ time_end: '2030-02-04 12:00:00', training: true, training_forced: false });
      expect(moved.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}000Z$/);
      // Each change counts in the revision (the calendar's SEQUENCE): the update, the deletion.
      expect(moved.revision).toBe(1);
      expect(bookings.find((b) => b.user_id === YAN && b.time_start === '2030-02-03 10:00:00')).toMatchObject({ revision: 1 });
      expect(bookings.find((b) => b.id === 1_900_000_000)).toMatchObject({ revision: 0 });
    },
  );

  const roundTrip = async (url: string) => {
    const imported = runCli(['import', fileA], { DATABASE_URL: url });
    expect(imported.code, imported.stderr).toBe(0);
    const again = runCli(['export'], { DATABASE_URL: url });
    expect(again.code, again.stderr).toBe(0);
    // The same bytes hold the fields the first test checks: the lossless fields came back.
    const zoe = JSON.parse(again.stdout).trainings.find((t: { user_id: number }) => t.user_id === ZOE);
    expect([
      zoe.mentors,
      zoe.reports.length,
      zoe.examinations.length,
      zoe.timeline.length,
      zoe.ratings.length,
      zoe.facilities.length,
    ]).toEqual([[YAN], 2, 2, 2, 2, 2]);
    // And the stored columns are the original's, those no export field showed before included.
    const copy = await storedColumns(url);
    expect(copy).toEqual(await storedColumns(ctx.databaseUrl));
    expect(copy.trainings.find((t) => t.user_id === ZOE)).toMatchObject(LOSSLESS.training);
    expect(copy.endorsements.find((e) => e.user_id === ZOE && e.type === 'visiting')).toMatchObject(LOSSLESS.endorsement);
    expect(copy.users.find((u) => u.id === ZOE)).toMatchObject(LOSSLESS.user);
    expect(copy.facilities.filter((f) => f.user_id === YAN).map((f) => f.name)).toEqual(['S3', 'T1 BIRK']);
    expect(copy.ratings.filter((r) => r.user_id === YAN).map((r) => r.rating)).toEqual([RATINGS.C1]);
    expect(copy.bookings.some((b) => b.revision > 0)).toBe(true);
    return again.stdout;
  };

  it(
    `import into an empty ${TEST_DIALECT} database, then export, gives the same bytes; later creates get new ids`,
    { timeout: SLOW_MS },
    async () => {
      const url = freshDatabaseUrl();
      expect((await roundTrip(url)) === textA).toBe(true);

      const maxId = Math.max(...(JSON.parse(textA).bookings as Array<{ id: number }>).map((b) => b.id));
      const key = await createKey({ DATABASE_URL: url }, 'after import');
      const server = await startServer({ DATABASE_URL: url });
      try {
        const res = await fetch(`${server.url}/api/bookings/create`, {
          method: 'POST',
          headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ cid: YAN, date: '05/05/2031', start_at: '10:00', end_at: '11:00', position: 'BIRK_TWR' }),
        });
        expect(res.status).toBe(201);
        expect(((await res.json()) as { booking: { id: number } }).booking.id).toBeGreaterThan(maxId);
      } finally {
        await server.stop();
      }
    },
  );

  it.runIf(TEST_DIALECT === 'sqlite' && process.env.TEST_DATABASE_URL)(
    'moves SQLite to PostgreSQL: export, import into PostgreSQL, export again: the same bytes',
    { timeout: SLOW_MS },
    async () => {
      const base = process.env.TEST_DATABASE_URL!;
      const schema = freshSchemaName(`move_${Math.random().toString(36).slice(2, 8)}`);
      expect((await roundTrip(`${base}${base.includes('?') ? '&' : '?'}schema=${schema}`)) === textA).toBe(true);
    },
  );

  it('import refuses unknown and malformed lossless fields with their path, changing nothing', { timeout: SLOW_MS }, async () => {
    const url = freshDatabaseUrl();
    const db = openDatabase(url);
    try {
      await migrateToLatest(db);
    } finally {
      await db.close();
    }
    const file = path.join(dir, 'bad.json');
    const booking = { user_id: YAN, callsign: 'BIRK_TWR', time_start: '2030-01-01 10:00:00', time_end: '2030-01-01 11:00:00' };
    // A bad value in the first record of a section (the rest of the file as it is).
    const withFirst = (section: 'users' | 'endorsements' | 'trainings', bad: Record<string, unknown>) => ({
      ...EXTRA,
      bookings: [booking],
      [section]: EXTRA[section].map((r, i) => (i === 0 ? { ...r, ...bad } : r)),
    });
    for (const [data, message] of [
      [{ ...EXTRA, bookings: [{ ...booking, training: 'yes' }] }, 'bookings[0].training: must be true or false'],
      [{ ...EXTRA, bookings: [{ ...booking, created_at: '2030-13-01T00:00:00Z' }] }, 'bookings[0].created_at: must be an ISO 8601 time'],
      [
        { ...EXTRA, bookings: [{ ...booking, training_forced: true }] },
        'bookings[0].training_forced: must be false unless training is true',
      ],
      [{ ...EXTRA, bookings: [{ ...booking, forced: true }] }, 'bookings[0].forced: unknown field'],
      [{ ...EXTRA, bookings: [{ ...booking, revision: -1 }] }, 'bookings[0].revision: must be an integer from 0 to 2147483647'],
      [{ ...EXTRA, bookings: [{ ...booking, revision: 1.5 }] }, 'bookings[0].revision: must be an integer from 0 to 2147483647'],
      [withFirst('trainings', { paused_ms: -5 }), 'trainings[0].paused_ms: must be an integer from 0 to 9007199254740991'],
      [withFirst('trainings', { queue_wait_ms: '1h' }), 'trainings[0].queue_wait_ms: must be an integer from 0 to 9007199254740991'],
      [withFirst('trainings', { interest_confirmed_at: 'soon' }), 'trainings[0].interest_confirmed_at: must be an ISO 8601 time'],
      [withFirst('trainings', { interest_deadline: '2025-02-30T00:00:00Z' }), 'trainings[0].interest_deadline: must be an ISO 8601 time'],
      [withFirst('trainings', { facilities: 'S3' }), 'trainings[0].facilities: must be an array of strings'],
      [
        withFirst('trainings', { facilities: ['T1 BIRK'], ratings: ['S3', 'T1 BIRK'] }),
        'trainings[0].ratings[1]: unknown rating "T1 BIRK"',
      ],
      [withFirst('endorsements', { created_at: null }), 'endorsements[0].created_at: must not be null'],
      [withFirst('endorsements', { expiry_published_at: 5 }), 'endorsements[0].expiry_published_at: must be an ISO 8601 time'],
      [withFirst('users', { created_at: '2025-01-01' }), 'users[0].created_at: must be an ISO 8601 time'],
      [withFirst('users', { updated_at: null }), 'users[0].updated_at: must not be null'],
    ] as const) {
      fs.writeFileSync(file, JSON.stringify(data));
      const before = await tableRows(url, ALL_TABLES);
      const r = runCli(['import', file], { DATABASE_URL: url });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(message);
      expect(await tableRows(url, ALL_TABLES), message).toEqual(before);
    }
    // Everything an export writes is still empty.
    expect(await tableRows(url, ['areas', 'users', 'positions', 'endorsements', 'roles', 'trainings', 'bookings'])).toEqual({
      areas: [],
      users: [],
      positions: [],
      endorsements: [],
      roles: [],
      trainings: [],
      bookings: [],
    });
  });
});
