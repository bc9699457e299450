// Conditions shared by several queries, written once. Each mirrors a rule of src/domain/.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../db/schema.js';
import { OPEN_TRAINING_MIN_STATUS } from '../domain/users/index.js';

/**
 * The endorsement is active at `now` (isActiveEndorsement in src/domain/endorsements.ts), for the
 * `endorsements` table or an alias of it.
 */
export function activeEndorsement(now: number, table = 'endorsements'): RawBuilder<boolean> {
  const col = (name: string) => sql.ref(`${table}.${name}`);
  return sql<boolean>`(${col('revoked')} = 0 and ${col('valid_from')} <= ${now} and (${col('valid_to')} is null or ${col('valid_to')} > ${now}))`;
}

/** The training is open (isOpenTraining in src/domain/users/training.ts). */
export const openTraining: RawBuilder<boolean> = sql<boolean>`${sql.ref('trainings.status')} >= ${OPEN_TRAINING_MIN_STATUS}`;

/** Users active in some area, as a subquery: hashed once per statement, never probed per row. */
export const atcActiveUsers = (db: Kysely<Database>) =>
  db.selectFrom('user_area_activity').select('user_area_activity.user_id').where('user_area_activity.active', '=', 1);

/** An outbox row due at `now` with no live lease (a dead process's claim lapses); `table` is its name or alias. */
export function dueAndUnleased(now: number, table: string): RawBuilder<boolean> {
  const col = (name: string) => sql.ref(`${table}.${name}`);
  return sql<boolean>`${col('next_attempt_at')} <= ${now} and (${col('lease_until')} is null or ${col('lease_until')} < ${now})`;
}

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
