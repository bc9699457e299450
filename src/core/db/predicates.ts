// Conditions shared by several queries, written once. Each mirrors a rule of src/domain/.
import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Dialect } from './connection.js';
import type { Database } from './schema.js';
import { OPEN_TRAINING_MIN_STATUS } from '../../features/users/domain/index.js';

/**
 * The endorsement is active at `now` (isActiveEndorsement in src/features/endorsements/domain.ts), for the
 * `endorsements` table or an alias of it.
 */
export function activeEndorsement(now: number, table = 'endorsements'): RawBuilder<boolean> {
  const col = (name: string) => sql.ref(`${table}.${name}`);
  return sql<boolean>`(${col('revoked')} = 0 and ${col('valid_from')} <= ${now} and (${col('valid_to')} is null or ${col('valid_to')} > ${now}))`;
}

/** The training is open (isOpenTraining in src/features/trainings/user-training.ts). */
export const openTraining: RawBuilder<boolean> = sql<boolean>`${sql.ref('trainings.status')} >= ${OPEN_TRAINING_MIN_STATUS}`;

/** Users active in some area, as a subquery: hashed once per statement, never probed per row. */
export const atcActiveUsers = (db: Kysely<Database>) =>
  db.selectFrom('user_area_activity').select('user_area_activity.user_id').where('user_area_activity.active', '=', 1);

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

// A literal, not a bound parameter: SQLite uses the partial index network_pushes_due_idx only then.
export const pendingPush = sql<boolean>`network_pushes.status = 'pending'`;

/** The subscription (`webhooks` alias `w`) takes events of this type: it has no filter, or its filter (",type,type,") names the type. */
export function subscriptionTakes(w: string, type: RawBuilder<unknown>): RawBuilder<boolean> {
  const events = sql.ref(`${w}.events`);
  return sql<boolean>`(${events} IS NULL OR ${events} LIKE '%,' || ${type} || ',%')`;
}

/** The seq of the newest event (0 when there is none), as a subquery: one seek of the key. */
export const lastEventSeq: RawBuilder<number> = sql<number>`(SELECT COALESCE(MAX(seq), 0) FROM events)`;

/** How far the network sync has taken the outbox (its row in outbox_cursors), as a subquery. */
export const networkCursor: RawBuilder<number> = sql<number>`(SELECT c.seq FROM outbox_cursors c WHERE c.name = 'network')`;
