// The import's fields for a lossless copy (docs/import-format.md): a training's facilities apart from
// its ratings (the older mixed form still read), its pause, queue wait and interest times, an
// endorsement's published expiry, a booking's revision. Read back from the stored rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATINGS } from '../../../src/features/members/domain/ratings.js';
import { createTestContext, type TestContext } from '../../support/context.js';
import { readDatabase } from '../../support/db-state.js';
import { buildPosition, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 0, 15, 12);
const ADA = 1008470;
const CREATED = '2025-03-01T10:00:00Z';

const BASE = {
  areas: ['Denmark'],
  users: [buildUser({ id: ADA, rating: 'S2' })],
  positions: [buildPosition('EKCH_TWR')],
};
const training = (fields: Record<string, unknown>) => ({
  trainings: [{ user_id: ADA, area: 'Denmark', type: 'Standard', status: 0, created_at: CREATED, ...fields }],
});

describe('import: fields of a lossless copy', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestContext({ now: NOW });
    await ctx.load(BASE);
  });
  afterAll(() => ctx.close());

  const stored = () =>
    readDatabase(ctx.databaseUrl, async (db) => {
      const t = await db.selectFrom('trainings').selectAll().where('user_id', '=', ADA).executeTakeFirstOrThrow();
      const ratings = await db.selectFrom('training_ratings').select('rating').where('training_id', '=', t.id).orderBy('rating').execute();
      const facilities = await db
        .selectFrom('training_facilities')
        .select('name')
        .where('training_id', '=', t.id)
        .orderBy('name')
        .execute();
      return { t, ratings: ratings.map((r) => r.rating), facilities: facilities.map((f) => f.name) };
    });

  it('a facility named like a rating code stays a facility in facilities; the older mixed ratings still split by code', async () => {
    await ctx.load(training({ ratings: ['S3', 'T1 EKCH TWR'] }));
    expect(await stored()).toMatchObject({ ratings: [RATINGS.S3], facilities: ['T1 EKCH TWR'] });

    await ctx.load(training({ ratings: ['S2'], facilities: ['S3', 'T1 EKCH TWR'] }));
    expect(await stored()).toMatchObject({ ratings: [RATINGS.S2], facilities: ['S3', 'T1 EKCH TWR'] });

    // facilities alone replaces the facilities and keeps the ratings.
    await ctx.load(training({ facilities: ['C1'] }));
    expect(await stored()).toMatchObject({ ratings: [RATINGS.S2], facilities: ['C1'] });

    // The older form replaces both lists, as before.
    await ctx.load(training({ ratings: ['S1'] }));
    expect(await stored()).toMatchObject({ ratings: [RATINGS.S1], facilities: [] });
  });

  it('a training keeps its pause, queue wait and interest times as given; without a wait, it is taken from started_at', async () => {
    await ctx.load(
      training({
        started_at: '2025-03-02T10:00:00Z',
        paused_ms: 5_000,
        queue_wait_ms: 1_234,
        interest_confirmed_at: '2025-04-01T00:00:00.5Z',
        interest_deadline: '2025-05-01T00:00:00Z',
      }),
    );
    expect((await stored()).t).toMatchObject({
      paused_ms: 5_000,
      queue_wait_ms: 1_234,
      interest_confirmed_at: Date.UTC(2025, 3, 1, 0, 0, 0, 500),
      interest_deadline: Date.UTC(2025, 4, 1),
    });
    await ctx.load(training({ started_at: '2025-03-02T10:00:00Z', paused_ms: null, interest_deadline: null }));
    expect((await stored()).t).toMatchObject({
      paused_ms: 0,
      queue_wait_ms: 24 * 3_600_000,
      interest_confirmed_at: Date.UTC(2025, 3, 1, 0, 0, 0, 500),
      interest_deadline: null,
    });
  });

  it('an endorsement keeps its published expiry; a new end without it is an expiry still to publish', async () => {
    const endorsement = (fields: Record<string, unknown>) => ({
      endorsements: [
        {
          user_id: ADA,
          type: 'facility',
          rating: 'T1 EKCH TWR',
          valid_from: '2025-01-01T00:00:00Z',
          valid_to: '2025-06-01T00:00:00Z',
          ...fields,
        },
      ],
    });
    const row = () =>
      readDatabase(ctx.databaseUrl, (db) => db.selectFrom('endorsements').selectAll().where('user_id', '=', ADA).executeTakeFirstOrThrow());
    await ctx.load(endorsement({ created_at: '2025-01-02T00:00:00Z', expiry_published_at: '2025-06-01T00:00:30Z' }));
    expect(await row()).toMatchObject({ created_at: Date.UTC(2025, 0, 2), expiry_published_at: Date.UTC(2025, 5, 1, 0, 0, 30) });
    // The same end: the published expiry stays.
    await ctx.load(endorsement({}));
    expect(await row()).toMatchObject({ created_at: Date.UTC(2025, 0, 2), expiry_published_at: Date.UTC(2025, 5, 1, 0, 0, 30) });
    await ctx.load(endorsement({ valid_to: '2025-07-01T00:00:00Z' }));
    expect(await row()).toMatchObject({ valid_to: Date.UTC(2025, 6, 1), expiry_published_at: null });
  });

  it("a user's row times: kept as given; without them, a changed record counts as changed at the import", async () => {
    const row = () =>
      readDatabase(ctx.databaseUrl, (db) =>
        db.selectFrom('users').select(['created_at', 'updated_at']).where('id', '=', ADA).executeTakeFirstOrThrow(),
      );
    expect(await row()).toEqual({ created_at: NOW, updated_at: NOW });
    await ctx.load({ users: [{ id: ADA, created_at: '2020-01-01T00:00:00Z', updated_at: '2024-01-01T00:00:00Z' }] });
    expect(await row()).toEqual({ created_at: Date.UTC(2020, 0, 1), updated_at: Date.UTC(2024, 0, 1) });
    ctx.setNow(NOW + 1_000);
    await ctx.load({ users: [{ id: ADA, first_name: 'Ada' }] });
    expect(await row()).toEqual({ created_at: Date.UTC(2020, 0, 1), updated_at: NOW + 1_000 });
  });

  it("a booking's revision: a new one takes the given one; a changed one never goes back", async () => {
    const booking = (fields: Record<string, unknown>) => ({
      bookings: [
        { id: 77, user_id: ADA, callsign: 'EKCH_TWR', time_start: '2030-03-12 10:00:00', time_end: '2030-03-12 12:00:00', ...fields },
      ],
    });
    const revision = () =>
      readDatabase(
        ctx.databaseUrl,
        async (db) => (await db.selectFrom('bookings').select('revision').where('id', '=', 77).executeTakeFirstOrThrow()).revision,
      );
    await ctx.load(booking({ revision: 5 }));
    expect(await revision()).toBe(5);
    await ctx.load(booking({ revision: 2 }));
    expect(await revision()).toBe(6);
    await ctx.load(booking({ revision: 9 }));
    expect(await revision()).toBe(9);
    await ctx.load(booking({}));
    expect(await revision()).toBe(10);
  });
});
