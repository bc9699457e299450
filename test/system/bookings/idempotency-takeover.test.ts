// A claim taken over from a request presumed dead (running for a minute) while that request was in
// fact only slow: the slow one cannot store its response any more, so its write rolls back and the
// key keeps the response of the request that took it over (src/features/bookings/idempotency.service.ts).
import { describe, expect, it } from 'vitest';
import { bookingFieldsOf } from '../../../src/features/bookings/domain/index.js';
import { InProgressError } from '../../../src/core/domain/errors.js';
import { IdempotencyService, type JsonResponse, STALE_CLAIM_MS } from '../../../src/features/bookings/idempotency.service.js';
import type { SavedBooking } from '../../../src/features/bookings/bookings.service.js';
import { createTestContext } from '../../support/context.js';
import { ADA, buildDivision, buildPosition, buildUser } from '../../support/factories.js';

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

describe('Idempotency-Key: a claim taken over from a slow request', () => {
  it("rolls back the slow request, whose response can no longer be stored, and keeps the new holder's", async () => {
    const ctx = await createTestContext({ now: NOW });
    try {
      await ctx.load(buildDivision({ users: [buildUser({ id: ADA, rating: 'C1' })], positions: [buildPosition('EKCH_TWR')] }));
      const { bookings, idempotency, writer, db } = ctx.services;
      const actor = { kind: 'system' as const };
      const fields = (start_at: string, end_at: string) =>
        bookingFieldsOf({ cid: ADA, date: '2/3/2026', start_at, end_at, position: 'EKCH_TWR' }, 'create');
      const respond = (saved: SavedBooking[]): JsonResponse => ({ status: 201, body: { id: saved[0]!.booking.id } });
      const scope = { apiKeyId: 'key-1', key: 'slow-1', requestHash: 'same-request' };
      // Another instance, a minute after the first claimed the key.
      const later = new IdempotencyService({ writer, clock: () => NOW + STALE_CLAIM_MS });

      let takenOver: unknown;
      const slow = idempotency.run(scope, respond, async (seal) => {
        takenOver = await later.run(scope, respond, async (seal2) => [
          await bookings.save(null, fields('10:00', '11:00'), actor, { seal: seal2! }),
        ]);
        return [await bookings.save(null, fields('12:00', '13:00'), actor, { seal: seal! })];
      });
      await expect(slow).rejects.toBeInstanceOf(InProgressError);

      const made = await db.kysely.selectFrom('bookings').select(['id', 'time_start']).execute();
      expect(made).toHaveLength(1);
      expect(takenOver).toEqual({ status: 201, body: { id: made[0]!.id }, replayed: false });
      const row = await db.kysely.selectFrom('idempotency_keys').selectAll().executeTakeFirstOrThrow();
      expect([row.state, row.status, row.response_body]).toEqual(['done', 201, JSON.stringify({ id: made[0]!.id })]);
      // And a repeat now gets that response.
      expect(await idempotency.run(scope, respond, () => Promise.reject(new Error('not run again')))).toEqual({
        replayed: true,
        status: 201,
        json: JSON.stringify({ id: made[0]!.id }),
      });
    } finally {
      await ctx.close();
    }
  });
});
