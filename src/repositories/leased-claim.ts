// The claim both outboxes make (webhook deliveries, network pushes): the due rows, in due order,
// are taken under a lease by one UPDATE … WHERE key IN (this query), so that whichever process
// gets there first makes the attempt and no two make it at once.
import type { SelectQueryBuilder } from 'kysely';
import type { Dialect } from '../db/connection.js';

/**
 * At most `limit` of the candidate rows, for a claiming UPDATE. On PostgreSQL rows another
 * instance is claiming right now are skipped (FOR UPDATE SKIP LOCKED) rather than waited for;
 * on SQLite the claim runs in a write transaction, which no other writer can interleave.
 */
export function claimable<DB, TB extends keyof DB, O>(
  candidates: SelectQueryBuilder<DB, TB, O>,
  dialect: Dialect,
  limit: number,
): SelectQueryBuilder<DB, TB, O> {
  const picked = candidates.limit(limit);
  return dialect === 'postgres' ? picked.forUpdate().skipLocked() : picked;
}
