// The one row claim of the outbox's rows, Idempotency-Keys and job leases, in SQL and in code.
import { type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Dialect } from './connection.js';

/**
 * The one row claim: a claim (an outbox row's, an Idempotency-Key's, a job lease) is held until a
 * time and lapses at it, so the claim of a process that died is taken over by whoever comes next.
 */
export const rowClaim = {
  /** A claim held until `heldUntil` (null: none) has lapsed at `now`. */
  lapsed: (heldUntil: number | null, now: number): boolean => heldUntil === null || heldUntil <= now,

  /** The same in SQL, for the column `held` (qualified by its table or alias). */
  lapsedIn(held: string, now: number): RawBuilder<boolean> {
    const col = sql.ref(held);
    return sql<boolean>`(${col} is null or ${col} <= ${now})`;
  },

  /** An outbox row (`table`, its name or alias) due at `now` whose claim (`lease_until`) has lapsed. */
  free(now: number, table: string): RawBuilder<boolean> {
    return sql<boolean>`${sql.ref(`${table}.next_attempt_at`)} <= ${now} and ${rowClaim.lapsedIn(`${table}.lease_until`, now)}`;
  },

  /**
   * At most `limit` of the free `candidates` for a claiming UPDATE … WHERE key IN (this query), run in a
   * write transaction: PostgreSQL skips rows another instance is claiming (SKIP LOCKED); SQLite's
   * write transaction is the only one.
   */
  pick<DB, TB extends keyof DB, O>(
    candidates: SelectQueryBuilder<DB, TB, O>,
    dialect: Dialect,
    limit: number,
  ): SelectQueryBuilder<DB, TB, O> {
    const picked = candidates.limit(limit);
    return dialect === 'postgres' ? picked.forUpdate().skipLocked() : picked;
  },
};
