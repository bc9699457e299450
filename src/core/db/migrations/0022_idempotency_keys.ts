import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../connection.js';

// Idempotency-Key on the bookings' creates (contract §5, "Batches and retries"): one row per key of an
// API key, claimed by its INSERT (the primary key decides between concurrent repeats, across
// instances). A request's response is stored by the transaction that makes its bookings, so a
// committed change always has its response to replay. claim_token names the current claim: only its
// holder may store the response, so a claim taken over from a dead process cannot be finished twice.
export async function up(db: Kysely<any>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('api_key_id', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    // sha256 (hex) of the route and the request's canonical body.
    .addColumn('request_hash', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull().check(sql`state IN ('running', 'done')`))
    .addColumn('status', 'integer')
    .addColumn('response_body', 'text')
    .addColumn('claim_token', 'text', (c) => c.notNull())
    .addColumn('claimed_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pk', ['api_key_id', 'key'])
    .execute();
  // The pruning worker's scan.
  await db.schema.createIndex('idempotency_keys_created_at').on('idempotency_keys').column('created_at').execute();
}
