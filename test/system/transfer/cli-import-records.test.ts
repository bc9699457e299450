// Fields within import records (docs/import-format.md): an unknown field is an error naming its path; a
// field omitted from a record that updates a row keeps its stored value; an explicit null clears
// a field that may be null; a record that creates a row needs that row's required fields.
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/core/db/connection.js';
import { migrateToLatest } from '../../../src/core/db/migrate.js';
import { loadConfig } from '../../../src/config.js';
import { createServices } from '../../../src/app/services.js';
import { freshDatabaseUrl, writeImportFile } from '../../support/context.js';
import { DIVISION_TABLES } from '../../support/db-state.js';
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

const NOW = Date.UTC(2026, 0, 15, 12);
const ADA = 1008470;
const BO = 1008471;

const BASE = {
  areas: ['Denmark', 'Finland'],
  users: [
    buildUser({ id: ADA, email: 'ada@example.org', rating: 'S3', ...SCANDINAVIA, atc_active_areas: { Denmark: true, Finland: false } }),
    buildUser({ id: BO, email: 'bo@example.org', first_name: 'Bo', last_name: 'Berg', ...SCANDINAVIA }),
  ],
  positions: [buildPosition('EKCH_TWR', { required_facility: 'T1 EKCH TWR' }), buildPosition('EKCH_DEL')],
  endorsements: [
    buildEndorsement({ user_id: ADA, type: 'visiting', rating: 'C1', areas: ['Finland'], positions: [], revoked: false }),
    {
      user_id: ADA,
      type: 'solo',
      positions: ['EKCH_TWR', 'EKCH_DEL'],
      valid_from: '2025-02-01T00:00:00Z',
      valid_to: '2026-06-01T00:00:00Z',
    },
  ],
  roles: [buildRole({ user_id: ADA })],
  trainings: [buildTraining({ user_id: BO, status: 2, started_at: '2025-03-05T10:00:00Z', ratings: ['S3', 'C1'] })],
  bookings: [
    buildBooking({
      id: 7,
      user_id: ADA,
      time_start: '2026-12-01 10:00:00',
      time_end: '2026-12-01 12:00:00',
      tag: 2,
      source: 'CC',
      network_booking: 'NB-7',
    }),
    buildBooking({ id: 8, user_id: BO, time_start: '2026-12-01 12:00:00', time_end: '2026-12-01 14:00:00', tag: null, source: 'DISCORD' }),
  ],
};

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((db) => db.close()));
});

/** A migrated database holding BASE, and a way to import more into it in-process. */
async function loaded() {
  const url = freshDatabaseUrl();
  const statements: string[] = [];
  const db = openDatabase(url, { onQuery: (e) => void statements.push(e.query.sql) });
  open.push(db);
  await migrateToLatest(db);
  let now = NOW;
  const { imports } = createServices(loadConfig({ DATABASE_URL: url, LOG_LEVEL: 'silent', DATA_FEED_URL: 'off' }), db, () => now);
  await imports.run(BASE);
  const k = db.kysely;
  return {
    url,
    db,
    statements,
    load: (data: unknown) => {
      now = NOW + 60_000;
      return imports.run(data);
    },
    user: (id: number) => k.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    activity: async (id: number) =>
      Object.fromEntries(
        (
          await k
            .selectFrom('user_area_activity as x')
            .innerJoin('areas as a', 'a.id', 'x.area_id')
            .select(['a.name', 'x.active'])
            .where('x.user_id', '=', id)
            .execute()
        ).map((r) => [r.name, r.active]),
      ),
    position: (callsign: string) =>
      k
        .selectFrom('positions as p')
        .leftJoin('areas as a', 'a.id', 'p.area_id')
        .select(['p.name', 'p.frequency', 'a.name as area', 'p.rating', 'p.required_facility'])
        .where('p.callsign', '=', callsign)
        .executeTakeFirstOrThrow(),
    endorsement: async (type: string) => {
      const e = await k
        .selectFrom('endorsements')
        .selectAll()
        .where('user_id', '=', ADA)
        .where('type', '=', type as 'solo')
        .executeTakeFirstOrThrow();
      const areas = await k
        .selectFrom('endorsement_areas as l')
        .innerJoin('areas as a', 'a.id', 'l.area_id')
        .select('a.name')
        .where('l.endorsement_id', '=', e.id)
        .orderBy('a.name')
        .execute();
      const positions = await k
        .selectFrom('endorsement_positions as l')
        .innerJoin('positions as p', 'p.id', 'l.position_id')
        .select('p.callsign')
        .where('l.endorsement_id', '=', e.id)
        .orderBy('p.callsign')
        .execute();
      return {
        rating: e.rating,
        valid_to: e.valid_to,
        revoked: e.revoked,
        revoked_at: e.revoked_at,
        areas: areas.map((a) => a.name),
        positions: positions.map((p) => p.callsign),
      };
    },
    training: async () => {
      const t = await k.selectFrom('trainings').selectAll().where('user_id', '=', BO).executeTakeFirstOrThrow();
      const ratings = await k.selectFrom('training_ratings').select('rating').where('training_id', '=', t.id).orderBy('rating').execute();
      return { type: t.type, status: t.status, started_at: t.started_at, ratings: ratings.map((r) => r.rating) };
    },
    booking: (id: number) =>
      k
        .selectFrom('bookings as b')
        .innerJoin('positions as p', 'p.id', 'b.position_id')
        .select([
          'b.user_id',
          'p.callsign',
          'b.time_start',
          'b.time_end',
          'b.training',
          'b.exam',
          'b.event',
          'b.deleted',
          'b.source',
          'b.network_booking',
        ])
        .where('b.id', '=', id)
        .executeTakeFirstOrThrow(),
    everything: async () => {
      const out: Record<string, unknown[]> = {};
      for (const t of DIVISION_TABLES) {
        out[t] = await k.selectFrom(t).selectAll().execute();
      }
      return out;
    },
  };
}

const refused = async (load: () => Promise<unknown>) => {
  const err = await load().then(
    () => null,
    (e: unknown) => e as Error,
  );
  expect(err, 'the import was expected to fail').not.toBeNull();
  return err!.message;
};

describe('import: unknown fields within records', () => {
  it('refuses the reviewer’s record, names the field, exits 1 and leaves the user as stored', async () => {
    const env = { DATABASE_URL: freshDatabaseUrl() };
    expect(runCli(['import', writeImportFile(BASE)], env).code).toBe(0);
    const r = runCli(['import', writeImportFile({ users: [{ id: ADA, rating: 'C1', FirstName: 'x' }] })], env);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('users[0].FirstName: unknown field');
    const db = openDatabase(env.DATABASE_URL);
    open.push(db);
    expect(
      await db.kysely
        .selectFrom('users')
        .select(['first_name', 'last_name', 'email', 'rating', 'division', 'subdivision'])
        .where('id', '=', ADA)
        .executeTakeFirstOrThrow(),
    ).toEqual({
      first_name: 'Ada',
      last_name: 'Lind',
      email: 'ada@example.org',
      rating: 4,
      division: 'EUD',
      subdivision: 'SCA',
    });
  });

  it.each([
    [{ users: [{ ...BASE.users[1], FirstName: 'x' }] }, 'users[0].FirstName: unknown field'],
    [{ positions: [{ ...BASE.positions[0], Frequency: '118.105' }] }, 'positions[0].Frequency: unknown field'],
    [{ endorsements: [{ ...BASE.endorsements[0], valid: true }] }, 'endorsements[0].valid: unknown field'],
    [{ roles: [{ ...BASE.roles[0], name: 'Mentor' }] }, 'roles[0].name: unknown field'],
    [{ trainings: [{ ...BASE.trainings[0], rating: 'S3' }] }, 'trainings[0].rating: unknown field'],
    [{ bookings: [BASE.bookings[0], { ...BASE.bookings[1], start: '2026-12-01 12:00:00' }] }, 'bookings[1].start: unknown field'],
    [{ users: [{ ...BASE.users[1], 'first name\n': 'x' }] }, 'users[0]."first name\\n": unknown field'],
  ])('refuses an unknown field in any section with its path, changing nothing (%#)', async (data, message) => {
    const db = await loaded();
    const before = await db.everything();
    expect(await refused(() => db.load(data))).toContain(message);
    expect(await db.everything()).toEqual(before);
  });

  it('reads atc_active_areas as a map of area names, not as a record with fields', async () => {
    const db = await loaded();
    await db.load({ users: [{ id: ADA, atc_active_areas: { Finland: true } }] });
    expect(await db.activity(ADA)).toEqual({ Denmark: 1, Finland: 1 });
    expect(await refused(() => db.load({ users: [{ id: ADA, atc_active_areas: { Atlantis: true } }] }))).toContain(
      'users[0].atc_active_areas.Atlantis: unknown area "Atlantis"',
    );
  });
});

describe('import: omitted fields keep, null clears, creates need required fields', () => {
  it('users: a partial record changes only what it gives; null clears; activity stays when omitted', async () => {
    const db = await loaded();
    const before = await db.user(ADA);
    await db.load({ users: [{ id: ADA, rating: 'C1' }] });
    expect(await db.user(ADA)).toEqual({ ...before, rating: 5, updated_at: NOW + 60_000 });
    expect(await db.activity(ADA)).toEqual({ Denmark: 1, Finland: 0 });

    await db.load({ users: [{ id: ADA, email: null, subdivision: null, first_name: 'Adah' }] });
    expect(await db.user(ADA)).toMatchObject({
      email: null,
      subdivision: null,
      first_name: 'Adah',
      last_name: 'Lind',
      division: 'EUD',
      rating: 5,
    });
  });

  it('C2 and I2 are rating codes: users, positions, visiting endorsements and trainings carry them', async () => {
    const db = await loaded();
    await db.load({
      users: [
        { id: ADA, rating: 'C2' },
        { id: BO, rating: 'I2' },
      ],
      positions: [{ callsign: 'EKCH_TWR', rating: 'C2' }],
      endorsements: [{ ...BASE.endorsements[0], rating: 'I2' }],
      trainings: [{ ...BASE.trainings[0], ratings: ['C2', 'I2'] }],
    });
    expect((await db.user(ADA)).rating).toBe(6);
    expect((await db.user(BO)).rating).toBe(9);
    expect((await db.position('EKCH_TWR')).rating).toBe(6);
    expect((await db.endorsement('visiting')).rating).toBe('I2');
    expect((await db.training()).ratings).toEqual([6, 9]);
  });

  it('users: a new user needs a rating; the error names it and nothing of the file is kept', async () => {
    const db = await loaded();
    const before = await db.everything();
    const message = await refused(() =>
      db.load({
        users: [
          { id: ADA, first_name: 'Changed' },
          { id: 2000001, first_name: 'New' },
        ],
      }),
    );
    expect(message).toBe('users[1].rating: is required, as user 2000001 does not exist yet');
    expect(await db.everything()).toEqual(before);
    expect(await refused(() => db.load({ users: [{ id: ADA, rating: null }] }))).toBe('users[0].rating: must not be null');
  });

  it('positions: a partial record keeps name, area, rating and facility; a new one needs name and frequency', async () => {
    const db = await loaded();
    await db.load({ positions: [{ callsign: 'EKCH_TWR', frequency: '118.1' }] });
    expect(await db.position('EKCH_TWR')).toEqual({
      name: 'Kastrup Tower',
      frequency: '118.100',
      area: 'Denmark',
      rating: 3,
      required_facility: 'T1 EKCH TWR',
    });
    await db.load({ positions: [{ callsign: 'EKCH_TWR', area: null, required_facility: null }] });
    expect(await db.position('EKCH_TWR')).toEqual({
      name: 'Kastrup Tower',
      frequency: '118.100',
      area: null,
      rating: 3,
      required_facility: null,
    });
    expect(await refused(() => db.load({ positions: [{ callsign: 'ESSA_TWR', frequency: '118.505' }] }))).toBe(
      'positions[0].name: is required, as position ESSA_TWR does not exist yet',
    );
    // A new position without a rating is still S1, as before.
    await db.load({ positions: [{ callsign: 'ESSA_TWR', name: 'Arlanda Tower', frequency: '118.505' }] });
    expect(await db.position('ESSA_TWR')).toEqual({
      name: 'Arlanda Tower',
      frequency: '118.505',
      area: null,
      rating: 2,
      required_facility: null,
    });
  });

  it('endorsements: omitted fields and link lists keep; a given list replaces them; null or [] clears them', async () => {
    const db = await loaded();
    const key = { user_id: ADA, type: 'solo', valid_from: '2025-02-01T00:00:00Z' };
    await db.load({ endorsements: [{ ...key, valid_to: '2026-09-01T00:00:00Z' }] });
    expect(await db.endorsement('solo')).toEqual({
      rating: null,
      valid_to: Date.UTC(2026, 8, 1),
      revoked: 0,
      revoked_at: null,
      areas: [],
      positions: ['EKCH_DEL', 'EKCH_TWR'],
    });
    await db.load({ endorsements: [{ ...key, positions: ['EKCH_DEL'] }] });
    expect((await db.endorsement('solo')).positions).toEqual(['EKCH_DEL']);
    await db.load({ endorsements: [{ ...key, positions: null }] });
    expect((await db.endorsement('solo')).positions).toEqual([]);

    const visiting = { user_id: ADA, type: 'visiting', valid_from: '2025-01-01T00:00:00Z' };
    await db.load({ endorsements: [{ ...visiting, revoked: true }] });
    expect(await db.endorsement('visiting')).toEqual({
      rating: 'C1',
      valid_to: null,
      revoked: 1,
      revoked_at: NOW + 60_000,
      areas: ['Finland'],
      positions: [],
    });
    await db.load({ endorsements: [{ ...visiting, areas: [] }] });
    expect(await db.endorsement('visiting')).toMatchObject({ revoked: 1, revoked_at: NOW + 60_000, areas: [] });
    await db.load({ endorsements: [{ ...visiting, valid_to: null, revoked: false }] });
    expect(await db.endorsement('visiting')).toMatchObject({ rating: 'C1', valid_to: null, revoked: 0, revoked_at: null });
  });

  it('endorsements: a new one needs the rating its type has; a solo needs nothing but its key', async () => {
    const db = await loaded();
    expect(await refused(() => db.load({ endorsements: [{ user_id: BO, type: 'examiner', valid_from: '2025-01-01T00:00:00Z' }] }))).toBe(
      'endorsements[0].rating: is required, as examiner endorsement of user 1008471 from 2025-01-01T00:00:00.000000Z does not exist yet',
    );
    await db.load({ endorsements: [{ user_id: BO, type: 's1', valid_from: '2025-01-01T00:00:00Z' }] });
    // revoked_at needs revoked: true in the same record (it cannot be checked against the stored row).
    expect(
      await refused(() =>
        db.load({ endorsements: [{ user_id: BO, type: 's1', valid_from: '2025-01-01T00:00:00Z', revoked_at: '2025-06-01T00:00:00Z' }] }),
      ),
    ).toBe('endorsements[0].revoked_at: must be null unless revoked is true');
  });

  it('trainings: a partial record keeps type, start and ratings; a given list replaces the ratings', async () => {
    const db = await loaded();
    const key = { user_id: BO, area: 'Denmark', created_at: '2025-03-01T10:00:00Z' };
    await db.load({ trainings: [{ ...key, status: 3 }] });
    expect(await db.training()).toEqual({ type: 'Standard', status: 3, started_at: Date.UTC(2025, 2, 5, 10), ratings: [4, 5] });
    await db.load({ trainings: [{ ...key, started_at: null, ratings: ['C1'] }] });
    expect(await db.training()).toEqual({ type: 'Standard', status: 3, started_at: null, ratings: [5] });
    expect(await refused(() => db.load({ trainings: [{ ...key, created_at: '2025-04-01T10:00:00Z', status: 0 }] }))).toBe(
      'trainings[0].type: is required, as training of user 1008471 in Denmark from 2025-04-01T10:00:00.000000Z does not exist yet',
    );
  });

  it('bookings: a record with an existing id updates only the fields it gives', async () => {
    const db = await loaded();
    const before = await db.booking(7);
    await db.load({ bookings: [{ id: 7, time_end: '2026-12-01 11:00:00' }] });
    expect(await db.booking(7)).toEqual({ ...before, time_end: Date.UTC(2026, 11, 1, 11) });
    await db.load({ bookings: [{ id: 7, deleted: true }] });
    expect(await db.booking(7)).toEqual({ ...before, time_end: Date.UTC(2026, 11, 1, 11), deleted: 1 });
    await db.load({ bookings: [{ id: 7, deleted: false, tag: null, network_booking: null }] });
    expect(await db.booking(7)).toEqual({ ...before, time_end: Date.UTC(2026, 11, 1, 11), exam: 0, network_booking: null });
    await db.load({ bookings: [{ id: 8, user_id: ADA, callsign: 'EKCH_DEL' }] });
    expect(await db.booking(8)).toMatchObject({
      user_id: ADA,
      callsign: 'EKCH_DEL',
      source: 'DISCORD',
      time_start: Date.UTC(2026, 11, 1, 12),
    });
  });

  it('bookings: checks the period and overlaps of the booking as it will be, naming the record', async () => {
    const db = await loaded();
    expect(await refused(() => db.load({ bookings: [{ id: 7, time_end: '2026-12-01 09:00:00' }] }))).toBe(
      'bookings[0].time_end: must be after time_start',
    );
    expect(await refused(() => db.load({ bookings: [{ id: 8, time_start: '2026-12-01 11:00:00' }] }))).toBe(
      'bookings[0]: overlaps another booking of EKCH_TWR',
    );
    expect(await refused(() => db.load({ bookings: [{ id: 9, time_end: '2026-12-01 11:00:00' }] }))).toBe(
      'bookings[0].user_id: is required, as booking 9 does not exist yet',
    );
    expect(await refused(() => db.load({ bookings: [{ user_id: ADA, callsign: 'EKCH_DEL', time_start: '2026-12-02 10:00:00' }] }))).toBe(
      'bookings[0].time_end: is required (a booking without an id is always new)',
    );
    // Two bookings trading places in one file: only the outcome must be free of overlaps.
    await db.load({
      bookings: [
        { id: 7, time_start: '2026-12-01 12:00:00', time_end: '2026-12-01 14:00:00' },
        { id: 8, time_start: '2026-12-01 10:00:00', time_end: '2026-12-01 12:00:00' },
      ],
    });
    expect([(await db.booking(7)).time_start, (await db.booking(8)).time_start]).toEqual([
      Date.UTC(2026, 11, 1, 12),
      Date.UTC(2026, 11, 1, 10),
    ]);
  });
});

describe('import: set-based', () => {
  it('runs as many statements for 200 records of each section as for 20, records of a few shapes alike', async () => {
    const file = (n: number) => ({
      users: Array.from({ length: n }, (_, i) =>
        i % 2 === 0 ? { id: 3000000 + i, rating: 'S2', first_name: `U${i}` } : { id: 3000000 + i, rating: 'S1' },
      ),
      endorsements: Array.from({ length: n }, (_, i) => ({
        user_id: 3000000 + i,
        type: 'solo',
        valid_from: '2025-01-01T00:00:00Z',
        ...(i % 3 === 0 ? { positions: ['EKCH_DEL'] } : {}),
      })),
      trainings: Array.from({ length: n }, (_, i) => ({
        user_id: 3000000 + i,
        area: 'Denmark',
        type: 'Standard',
        status: 0,
        created_at: '2025-01-01T00:00:00Z',
        ...(i % 2 === 0 ? { ratings: ['S2'] } : {}),
      })),
      bookings: Array.from({ length: n }, (_, i) => ({
        ...(i % 2 === 0 ? { id: 100 + i } : {}),
        user_id: 3000000 + i,
        callsign: 'EKCH_DEL',
        time_start: `2027-01-01 ${String(Math.floor(i / 10)).padStart(2, '0')}:${String((i % 10) * 6).padStart(2, '0')}:00`,
        time_end: `2027-01-01 ${String(Math.floor(i / 10)).padStart(2, '0')}:${String((i % 10) * 6 + 5).padStart(2, '0')}:00`,
      })),
    });
    const count = async (n: number) => {
      const first = await loaded();
      await first.load(file(n)); // creates
      first.statements.length = 0;
      // Updates (bookings without an id would be new again).
      const again = file(n);
      await first.load({ ...again, bookings: again.bookings.filter((b) => 'id' in b) });
      return first.statements.length;
    };
    const fresh = async (n: number) => {
      const db = await loaded();
      db.statements.length = 0;
      await db.load(file(n));
      return db.statements.length;
    };
    expect(await fresh(200)).toBe(await fresh(20));
    expect(await count(200)).toBe(await count(20));
  });
});
