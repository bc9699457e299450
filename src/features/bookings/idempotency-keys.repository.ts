// The Idempotency-Key rows (src/features/bookings/idempotency.service.ts): claimed by an INSERT, so the database decides
// between concurrent repeats; taken over and finished only by conditional UPDATEs naming the claim.
import type { Executor } from '../../core/db/connection.js';
import type { IdempotencyKeysTable } from '../../core/db/schema-operations.js';

export type IdempotencyKeyRow = IdempotencyKeysTable;

/** A key of an API key. */
export interface KeyOf {
  apiKeyId: string;
  key: string;
}

/** A new claim: the request's hash, its own token, and the time. */
export interface NewClaim {
  requestHash: string;
  token: string;
  now: number;
}

export function idempotencyKeysRepository(db: Executor) {
  const row = (k: KeyOf) => ({ api_key_id: k.apiKeyId, key: k.key });
  // What a claim writes, first or taking a key over: running, with no stored response yet.
  const claimed = (c: NewClaim) => ({
    request_hash: c.requestHash,
    state: 'running' as const,
    status: null,
    response_body: null,
    claim_token: c.token,
    claimed_at: c.now,
  });
  return {
    /** Claims the key for a request; false when a row for it exists already (whatever its state). */
    async claim(k: KeyOf, c: NewClaim): Promise<boolean> {
      const inserted = await db
        .insertInto('idempotency_keys')
        .values({ ...row(k), ...claimed(c), created_at: c.now })
        .onConflict((oc) => oc.columns(['api_key_id', 'key']).doNothing())
        .returning('key')
        .executeTakeFirst();
      return inserted !== undefined;
    },

    find(k: KeyOf): Promise<IdempotencyKeyRow | undefined> {
      return db.selectFrom('idempotency_keys').selectAll().where('api_key_id', '=', k.apiKeyId).where('key', '=', k.key).executeTakeFirst();
    },

    /**
     * Replaces the row as it was read (its token and state unchanged since) with a new claim: of an
     * expired key (fresh: a new 24 hours), or of a claim left running by a process that died.
     */
    async takeOver(k: KeyOf, seen: Pick<IdempotencyKeyRow, 'claim_token' | 'state'>, c: NewClaim, fresh: boolean): Promise<boolean> {
      const r = await db
        .updateTable('idempotency_keys')
        .set((eb) => ({ ...claimed(c), created_at: fresh ? c.now : eb.ref('created_at') }))
        .where('api_key_id', '=', k.apiKeyId)
        .where('key', '=', k.key)
        .where('claim_token', '=', seen.claim_token)
        .where('state', '=', seen.state)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Stores the response of the claim `token`; false when the claim is no longer that one's. */
    async finish(k: KeyOf, token: string, status: number, body: string): Promise<boolean> {
      const r = await db
        .updateTable('idempotency_keys')
        .set({ state: 'done', status, response_body: body })
        .where('api_key_id', '=', k.apiKeyId)
        .where('key', '=', k.key)
        .where('claim_token', '=', token)
        .where('state', '=', 'running')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Lets go of the claim `token` while it is still running (its request changed nothing). */
    async release(k: KeyOf, token: string): Promise<void> {
      await db
        .deleteFrom('idempotency_keys')
        .where('api_key_id', '=', k.apiKeyId)
        .where('key', '=', k.key)
        .where('claim_token', '=', token)
        .where('state', '=', 'running')
        .execute();
    },

    /** Removes keys created at or before `before`; how many. */
    async prune(before: number): Promise<number> {
      const r = await db.deleteFrom('idempotency_keys').where('created_at', '<=', before).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
