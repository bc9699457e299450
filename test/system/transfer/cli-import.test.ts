import { describe, expect, it } from 'vitest';
import { buildApp } from '../../../src/app/app.js';
import { loadConfig } from '../../../src/config.js';
import { openDatabase } from '../../../src/core/db/connection.js';
import { MIGRATION_NAMES, migrateToLatest, migratorOf } from '../../../src/core/db/migrate.js';
import { ImportError } from '../../../src/features/transfer/import.service.js';
import { createServices } from '../../../src/app/services.js';
import { freshDatabaseUrl, writeImportFile } from '../../support/context.js';
import { ALL_TABLES, tableRows } from '../../support/db-state.js';
import {
  buildBooking,
  buildEndorsement,
  buildPosition,
  buildRole,
  buildTraining,
  buildUser,
  SCANDINAVIA,
} from '../../support/factories.js';
import { runCli } from '../../support/processes.js';
import { importData } from '../../support/seed.js';

const VALID = {
  areas: ['Denmark', 'Finland'],
  users: [
    buildUser({ id: 10000001, email: 'a@example.org', rating: 'S3', ...SCANDINAVIA, atc_active_areas: { Denmark: true } }),
    buildUser({ id: 10000002, email: 'b@example.org', first_name: 'Bo', last_name: 'Berg', ...SCANDINAVIA }),
  ],
  positions: [buildPosition('EKCH_TWR', { required_facility: 'T1 EKCH TWR' })],
  endorsements: [
    buildEndorsement({ user_id: 10000001, type: 'visiting', rating: 'C1', areas: ['Finland'], positions: [], revoked: false }),
  ],
  roles: [buildRole({ user_id: 10000001 })],
  trainings: [buildTraining({ user_id: 10000002, ratings: ['S3'] })],
  bookings: [
    buildBooking({ user_id: 10000001, time_start: '2030-12-01 10:00:00', time_end: '2030-12-01 12:00:00', tag: null, source: 'CC' }),
  ],
};

async function counts(url: string) {
  const db = openDatabase(url);
  const out: Record<string, number> = {};
  for (const t of [
    'areas',
    'users',
    'positions',
    'endorsements',
    'endorsement_areas',
    'roles',
    'trainings',
    'training_ratings',
    'bookings',
    'user_area_activity',
  ] as const) {
    const r = await db.kysely
      .selectFrom(t)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    out[t] = Number(r.n);
  }
  await db.close();
  return out;
}

/**
 * The refusals run through the CLI as a process too: one of each kind (an unknown value, an overlap,
 * an unknown key, a duplicate, a NUL, not an object, not JSON); every refusal runs through the
 * import the command runs (runImport, on the real database).
 */
const REFUSED_BY_PROCESS = new Set([
  'users[1].rating: unknown rating "X9"',
  'bookings[1]: overlaps another booking of EKCH_TWR',
  'flights: unknown key',
  'users[2]: duplicates users[0] (same id)',
  'users[1].first_name: must not contain a NUL character',
  '$: must be an object',
  'is not valid JSON',
]);

describe('npx sector import', () => {
  let refusals: { DATABASE_URL: string } | undefined;
  it('imports every section in the contract format, and is idempotent (upserts by natural key)', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const file = writeImportFile({ ...VALID, bookings: [{ ...VALID.bookings[0], id: 7 }] });
    const first = runCli(['import', file], env);
    expect(first.stderr).toMatch(/^Imported 2 areas, 2 users, 1 position, 1 endorsement, 1 role, 1 training, 1 booking\b/);
    expect(first.code).toBe(0);
    const once = await counts(env.DATABASE_URL);
    expect(once).toEqual({
      areas: 2,
      users: 2,
      positions: 1,
      endorsements: 1,
      endorsement_areas: 1,
      roles: 1,
      trainings: 1,
      training_ratings: 1,
      bookings: 1,
      user_area_activity: 1,
    });

    expect(runCli(['import', file], env).code).toBe(0);
    expect(await counts(env.DATABASE_URL)).toEqual(once);

    // Visible through the API with the frequency normalised.
    const config = loadConfig({ DATABASE_URL: env.DATABASE_URL, LOG_LEVEL: 'silent' });
    const db = openDatabase(env.DATABASE_URL);
    const app = await buildApp(createServices(config, db), { logger: false });
    const res = await app.inject({ method: 'GET', url: '/api/positions' });
    expect(res.json()).toEqual({ data: [{ callsign: 'EKCH_TWR', name: 'Kastrup Tower', frequency: '118.105' }] });
    await app.close();
    await db.close();
  });

  it.each([
    [{ ...VALID, users: [VALID.users[0], { ...VALID.users[1], rating: 'X9' }] }, 'users[1].rating: unknown rating "X9"'],
    [{ ...VALID, roles: [{ user_id: 10000001, area: 'Atlantis', role: 'Mentor' }] }, 'roles[0].area: unknown area "Atlantis"'],
    [{ ...VALID, trainings: [{ ...VALID.trainings[0], user_id: 424242 }] }, 'trainings[0].user_id: unknown user 424242'],
    [{ ...VALID, trainings: [{ ...VALID.trainings[0], mentors: [424242] }] }, 'trainings[0].mentors[0].user_id: unknown user 424242'],
    [
      {
        ...VALID,
        trainings: [
          {
            ...VALID.trainings[0],
            examinations: [
              {
                examination_date: '2026-02-30',
                position: 'EKCH_TWR',
                examiner_id: 10000001,
                result: 'PASSED',
                created_at: '2026-03-01T00:00:00Z',
              },
            ],
          },
        ],
      },
      'trainings[0].examinations[0].examination_date: must be a date YYYY-MM-DD',
    ],
    [
      {
        ...VALID,
        trainings: [
          {
            ...VALID.trainings[0],
            reports: [{ report_date: '2026-03-01', content: 'x', draft: 'yes', created_at: '2026-03-01T00:00:00Z' }],
          },
        ],
      },
      'trainings[0].reports[0].draft: must be true or false',
    ],
    [
      { ...VALID, users: [{ ...VALID.users[0], atc_grace_start: { Atlantis: '2026-01-01T00:00:00Z' } }, VALID.users[1]] },
      'users[0].atc_grace_start.Atlantis: only for an area that atc_active_areas sets true',
    ],
    [
      { ...VALID, endorsements: [{ ...VALID.endorsements[0], type: 'solo', positions: ['ESSA_TWR'] }] },
      'endorsements[0].positions[0]: unknown position "ESSA_TWR"',
    ],
    [{ ...VALID, positions: [{ ...VALID.positions[0], frequency: '99.9' }] }, 'positions[0].frequency'],
    [
      {
        ...VALID,
        bookings: [VALID.bookings[0], { ...VALID.bookings[0], time_start: '2030-12-01 11:00:00', time_end: '2030-12-01 13:00:00' }],
      },
      'bookings[1]: overlaps another booking of EKCH_TWR',
    ],
    [{ ...VALID, bookings: [{ ...VALID.bookings[0], time_start: '2030-02-30 10:00:00' }] }, 'bookings[0].time_start'],
    [
      { ...VALID, endorsements: [{ ...VALID.endorsements[0], revoked_at: '2025-03-01T12:00:00Z' }] },
      'endorsements[0].revoked_at: must be null unless revoked is true',
    ],
    [{ ...VALID, flights: [] }, 'flights: unknown key'],
    // Instants whose fields do not exist are refused, not rolled over into the next month or day.
    [
      { ...VALID, endorsements: [{ ...VALID.endorsements[0], valid_from: '2025-02-30T00:00:00Z' }] },
      'endorsements[0].valid_from: must be an ISO 8601 time such as 2025-01-01T00:00:00Z (got "2025-02-30T00:00:00Z")',
    ],
    [
      { ...VALID, endorsements: [{ ...VALID.endorsements[0], valid_to: '2025-06-01T24:00:00Z' }] },
      'endorsements[0].valid_to: must be an ISO 8601 time',
    ],
    [
      { ...VALID, trainings: [{ ...VALID.trainings[0], created_at: '2025-02-29T10:00:00Z' }] },
      'trainings[0].created_at: must be an ISO 8601 time',
    ],
    [
      { ...VALID, trainings: [{ ...VALID.trainings[0], started_at: '2025-03-01T10:60:00+01:00' }] },
      'trainings[0].started_at: must be an ISO 8601 time',
    ],
    // A natural key twice in one file names the second occurrence and the first.
    [{ ...VALID, users: [...VALID.users, { ...VALID.users[0], email: 'c@example.org' }] }, 'users[2]: duplicates users[0] (same id)'],
    [
      { ...VALID, positions: [VALID.positions[0], { ...VALID.positions[0], callsign: 'ekch_twr', name: 'Copenhagen Tower' }] },
      'positions[1]: duplicates positions[0] (same callsign)',
    ],
    [
      {
        ...VALID,
        endorsements: [
          VALID.endorsements[0],
          { ...VALID.endorsements[0], user_id: 10000002 },
          { ...VALID.endorsements[0], rating: 'S3', valid_from: '2025-01-01T01:00:00+01:00' },
        ],
      },
      'endorsements[2]: duplicates endorsements[0] (same user_id, type and valid_from)',
    ],
    [
      {
        ...VALID,
        endorsements: [
          { ...VALID.endorsements[0], type: 'facility', rating: 'T1 EKCH TWR' },
          { ...VALID.endorsements[0], type: 'masc', rating: 'T1 EKCH TWR' },
        ],
      },
      'endorsements[1]: duplicates endorsements[0] (same user_id, type and valid_from)',
    ],
    [
      { ...VALID, trainings: [VALID.trainings[0], { ...VALID.trainings[0], status: 2 }] },
      'trainings[1]: duplicates trainings[0] (same user_id, area and created_at)',
    ],
    [
      {
        ...VALID,
        bookings: [
          { ...VALID.bookings[0], id: 5 },
          { ...VALID.bookings[0], id: 5, time_start: '2030-12-02 10:00:00', time_end: '2030-12-02 11:00:00' },
        ],
      },
      'bookings[1]: duplicates bookings[0] (same id)',
    ],
    // NUL cannot be stored by PostgreSQL: refused with its path on every database.
    [
      { ...VALID, users: [VALID.users[0], { ...VALID.users[1], first_name: 'B\u0000o' }] },
      'users[1].first_name: must not contain a NUL character',
    ],
    [{ ...VALID, areas: ['Denmark', 'Fin\u0000land'] }, 'areas[1]: must not contain a NUL character'],
    [{ ...VALID, roles: [{ ...VALID.roles[0], role: 'Men\u0000tor' }] }, 'roles[0].role: must not contain a NUL character'],
    [
      { ...VALID, endorsements: [{ ...VALID.endorsements[0], areas: ['Finland\u0000'] }] },
      'endorsements[0].areas[0]: must not contain a NUL character',
    ],
    [
      { ...VALID, users: [{ ...VALID.users[0], atc_active_areas: { 'Den\u0000mark': true } }, VALID.users[1]] },
      'users[0].atc_active_areas: must not contain a NUL character',
    ],
    [
      { ...VALID, bookings: [{ ...VALID.bookings[0], network_booking: '\u0000' }] },
      'bookings[0].network_booking: must not contain a NUL character',
    ],
    // Booking ids above 2,000,000,000 are left for bookings made after the import.
    [{ ...VALID, bookings: [{ ...VALID.bookings[0], id: 2_000_000_001 }] }, 'bookings[0].id: must be an integer from 1 to 2000000000'],
    [{ ...VALID, bookings: [{ ...VALID.bookings[0], id: 2 ** 31 - 1 }] }, 'bookings[0].id: must be an integer from 1 to 2000000000'],
    [[1, 2], '$: must be an object'],
    ['{"users": [', 'is not valid JSON'],
  ])('refuses a bad file with its JSON path and changes nothing (%#)', async (data, message) => {
    // One database for every refusal: each must leave it as it found it (every table).
    if (refusals === undefined) {
      refusals = { DATABASE_URL: freshDatabaseUrl() };
      const db = openDatabase(refusals.DATABASE_URL);
      try {
        await migrateToLatest(db);
      } finally {
        await db.close();
      }
    }
    const env = refusals;
    const before = await tableRows(env.DATABASE_URL, ALL_TABLES);
    if (REFUSED_BY_PROCESS.has(message)) {
      const r = runCli(['import', writeImportFile(data)], env);
      expect(r.code).toBe(1);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(message);
    } else {
      // The data as the command reads it from the file.
      const refused = await importData(env, JSON.parse(JSON.stringify(data))).then(
        () => null,
        (err: unknown) => err,
      );
      expect(refused).toBeInstanceOf(ImportError);
      expect((refused as ImportError).message.split('\n')).toHaveLength(1);
      expect((refused as ImportError).message).toContain(message);
    }
    expect(await tableRows(env.DATABASE_URL, ALL_TABLES)).toEqual(before);
  });

  it('ignores a repeated area or role, which adds nothing and contradicts nothing', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const file = writeImportFile({
      ...VALID,
      areas: ['Denmark', 'Finland', 'Denmark'],
      roles: [VALID.roles[0], { ...VALID.roles[0] }, { ...VALID.roles[0], role: 'Buddy' }],
    });
    const r = runCli(['import', file], env);
    expect(r.stderr).toMatch(/^Imported 2 areas, 2 users, 1 position, 1 endorsement, 2 roles, /);
    expect(r.code).toBe(0);
    expect(await counts(env.DATABASE_URL)).toMatchObject({ areas: 2, roles: 2 });
  });

  it('takes a mentor whom nothing in the file names but the users section', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const mentor = buildUser({ id: 10000003, first_name: 'Mo', ...SCANDINAVIA });
    const file = writeImportFile({
      ...VALID,
      users: [...VALID.users, mentor],
      trainings: [{ ...VALID.trainings[0], mentors: [10000003] }],
    });
    const r = runCli(['import', file], env);
    expect(r.stderr).toMatch(/^Imported 2 areas, 3 users, /);
    expect(r.code).toBe(0);
    const db = openDatabase(env.DATABASE_URL);
    const mentors = await db.kysely.selectFrom('training_mentors').select('user_id').execute();
    await db.close();
    expect(mentors).toEqual([{ user_id: 10000003 }]);
  });

  it('keeps booking ids above the highest one an import may give free for new bookings', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const highest = { ...VALID.bookings[0], id: 2_000_000_000 };
    await importData(env, { ...VALID, bookings: [highest] });
    // A booking without an id takes the next one: still within the 32-bit ids the API accepts.
    const later = { ...VALID.bookings[0], time_start: '2030-12-02 10:00:00', time_end: '2030-12-02 12:00:00' };
    const r = runCli(['import', writeImportFile({ bookings: [later] })], env);
    expect(r.stderr).toMatch(/^Imported 1 booking\b/);
    expect(r.code).toBe(0);
    const db = openDatabase(env.DATABASE_URL);
    const ids = (await db.kysely.selectFrom('bookings').select('id').orderBy('id').execute()).map((b) => b.id);
    await db.close();
    expect(ids).toEqual([2_000_000_000, 2_000_000_001]);
  });

  it('refuses a file that does not exist', () => {
    const r = runCli(['import', '/nonexistent/file.json'], { DATABASE_URL: freshDatabaseUrl() });
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('sector: cannot read /nonexistent/file.json: ENOENT');
  });
});

describe('npx sector seed:demo', () => {
  it('loads a realistic demo division into an empty database; a second run changes nothing and says so', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const r = runCli(['seed:demo'], env);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^Loaded the demo division: 5 areas, 300 users, \d+ positions/);
    const loaded = await counts(env.DATABASE_URL);
    expect(loaded.positions).toBeGreaterThanOrEqual(55);
    expect(loaded.bookings).toBeGreaterThan(100);
    expect(loaded.endorsements).toBeGreaterThan(300);

    const again = runCli(['seed:demo'], env);
    expect(again.code).toBe(0);
    expect(again.stderr.trim()).toBe('The demo division (seed 1) is already loaded; nothing was changed.');
    expect(await counts(env.DATABASE_URL)).toEqual(loaded);
  });
});

describe('npx sector migrate', () => {
  it('names the migrations it applied, then says the schema is up to date', () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const first = runCli(['migrate'], env);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/^Applied migrations: 0001_initial, /);
    const again = runCli(['migrate'], env);
    expect(again.stderr.trim()).toBe('Database schema is already up to date.');
  });

  it('brings a database that is one migration behind up to date at the next command', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const db = openDatabase(env.DATABASE_URL);
    const { error } = await migratorOf(db).migrateTo(MIGRATION_NAMES.at(-2)!);
    await db.close();
    expect(error).toBeUndefined();
    const listed = runCli(['audit'], env);
    expect(listed.code, listed.stderr).toBe(0);
    const after = openDatabase(env.DATABASE_URL);
    const applied = await after.kysely
      .selectFrom('sector_migrations' as never)
      .select('name' as never)
      .execute();
    await after.close();
    expect(applied.map((r) => (r as { name: string }).name).sort()).toEqual([...MIGRATION_NAMES]);
  });
});

describe('revocation times of imported endorsements', () => {
  it('takes the given time, else none for a first import, else the import that first saw it revoked', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    const revokedAt = async () => {
      const db = openDatabase(env.DATABASE_URL);
      const row = await db.kysely.selectFrom('endorsements').select(['revoked', 'revoked_at']).executeTakeFirstOrThrow();
      await db.close();
      return row;
    };
    // Without the bookings: those carry no id, so every import would add them again.
    const importWith = (fields: { revoked: boolean; revoked_at?: string | null }) =>
      runCli(['import', writeImportFile({ ...VALID, bookings: [], endorsements: [{ ...VALID.endorsements[0], ...fields }] })], env);

    // Revoked before Sector knew it, at a time the source does not give: long ago, not "now".
    expect(importWith({ revoked: true }).code).toBe(0);
    expect(await revokedAt()).toEqual({ revoked: 1, revoked_at: null });
    expect(importWith({ revoked: false }).code).toBe(0);
    expect(await revokedAt()).toEqual({ revoked: 0, revoked_at: null });

    // Live at the last import, revoked at this one: revoked in between, so now.
    const before = Date.now();
    expect(importWith({ revoked: true }).code).toBe(0);
    const seen = await revokedAt();
    expect(seen.revoked).toBe(1);
    expect(seen.revoked_at).toBeGreaterThanOrEqual(before);
    expect(seen.revoked_at).toBeLessThanOrEqual(Date.now());
    // Imported again: the first time stays.
    expect(importWith({ revoked: true }).code).toBe(0);
    expect(await revokedAt()).toEqual(seen);

    // A time the source gives wins.
    expect(importWith({ revoked: true, revoked_at: '2025-03-01T12:00:00Z' }).code).toBe(0);
    expect(await revokedAt()).toEqual({ revoked: 1, revoked_at: Date.UTC(2025, 2, 1, 12) });
  });
});
