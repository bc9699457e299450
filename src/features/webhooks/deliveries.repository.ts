// The webhook delivery queue: one row per event and subscription, queued from the outbox in
// batches after the commit (fanOut), claimed head-first per subscription under a lease, so no two
// processes deliver the same one at once.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database, DeliveryStatus } from '../../core/db/schema.js';
import { rowClaim, lastEventSeq, subscriptionTakes } from '../../core/db/predicates.js';

// Statuses written out, not bound: SQLite uses the partial index webhook_deliveries_open_idx only then.
export const isOpen = (table: string) => sql<boolean>`${sql.ref(`${table}.status`)} in ('pending', 'delivering')`;

/** Advisory-lock key held by whoever fans events out or removes a subscription (PostgreSQL). */
export const FAN_OUT_LOCK = 0x5345435446414e4fn;

/** Events fanned out to the subscriptions at most per statement: a long backlog goes in batches. */
const FAN_OUT_BATCH = 2_000;

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  id: number;
  event_id: string;
  event_type: string;
  body: string;
  webhook_id: string;
  url: string;
  secret: string;
  attempts: number;
  lease_until: number;
}

export interface AttemptOutcome {
  status: DeliveryStatus;
  nextAttemptAt: number;
  statusCode: number | null;
  error: string | null;
  at: number;
  durationMs: number;
}

export function webhookDeliveriesRepository(db: Kysely<Database>, dialect: Dialect) {
  /**
   * Each subscription's head: its lowest open delivery, found by one seek of the open-deliveries
   * index per subscription, however long the queue behind it.
   */
  const heads = () =>
    db.selectFrom('webhooks as w').select((eb) =>
      eb
        .selectFrom('webhook_deliveries as h')
        .select((e) => e.fn.min('h.id').as('head'))
        .whereRef('h.webhook_id', '=', 'w.id')
        .where(isOpen('h'))
        .as('id'),
    );

  return {
    /**
     * Queues one delivery per new event and active subscription that takes its type (up to a batch;
     * `more` when one was left). Run in a write transaction; on PostgreSQL one process at a time (or
     * waiting with `wait`), so no delivery is queued twice.
     */
    async fanOut(now: number, { wait = false } = {}): Promise<{ more: boolean }> {
      if (dialect === 'postgres') {
        const lock = wait ? sql`pg_advisory_xact_lock` : sql`pg_try_advisory_xact_lock`;
        const locked = await sql<{ locked: unknown }>`SELECT ${lock}(${FAN_OUT_LOCK.toString()}::bigint) AS locked`.execute(db);
        if (locked.rows[0]!.locked === false) return { more: false };
      }
      const bounds = await db
        .selectFrom('webhooks')
        .select((eb) => [eb.fn.min<number | null>('fanned_out_seq').as('low'), lastEventSeq.as('high')])
        .where('removed_at', 'is', null)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
      const low = bounds?.low ?? null;
      const high = bounds?.high ?? 0;
      if (low === null || low >= high) return { more: false };
      const upper = Math.min(high, low + FAN_OUT_BATCH);
      await sql`INSERT INTO webhook_deliveries (event_seq, event_id, webhook_id, status, attempts, next_attempt_at, created_at, updated_at)
          SELECT e.seq, e.id, w.id, 'pending', 0, ${now}, ${now}, ${now}
          FROM webhooks w JOIN events e ON e.seq > w.fanned_out_seq AND e.seq <= ${upper}
          WHERE w.removed_at IS NULL AND w.disabled_at IS NULL AND ${subscriptionTakes('w', sql.ref('e.type'))}
          ORDER BY e.seq, w.id`.execute(db);
      await db
        .updateTable('webhooks')
        .set({ fanned_out_seq: upper })
        .where('removed_at', 'is', null)
        .where('disabled_at', 'is', null)
        .where('fanned_out_seq', '<', upper)
        .execute();
      return { more: upper < high };
    },

    /**
     * What a run has to do, in one read (an idle run takes no write lock): `fanOut`, an active
     * subscription has events not yet queued for it; `due`, a subscription's head delivery is due
     * (only a head can be).
     */
    async pendingWork(now: number): Promise<{ fanOut: boolean; due: boolean }> {
      const row = await db
        .selectNoFrom((eb) => [
          eb
            .exists(
              db
                .selectFrom('webhooks')
                .select('id')
                .where('removed_at', 'is', null)
                .where('disabled_at', 'is', null)
                .where('fanned_out_seq', '<', lastEventSeq),
            )
            .as('fan_out'),
          eb
            .exists(
              db
                .selectFrom('webhook_deliveries as c')
                .select('c.id')
                .where('c.id', 'in', heads())
                .where(isOpen('c'))
                .where(rowClaim.free(now, 'c')),
            )
            .as('due'),
        ])
        .executeTakeFirstOrThrow();
      // SQLite returns 0 or 1, PostgreSQL a boolean.
      return { fanOut: Boolean(row.fan_out), due: Boolean(row.due) };
    },

    /**
     * Claims up to `limit` due head deliveries (lowest open id of their subscription) until
     * `leaseUntil`, of one subscription when `webhookId` is given; see rowClaim.pick.
     */
    async claim(now: number, leaseUntil: number, limit: number, webhookId?: string): Promise<ClaimedDelivery[]> {
      if (limit <= 0) return [];
      let due = db
        .selectFrom('webhook_deliveries as c')
        .select('c.id')
        .where('c.id', 'in', heads())
        .where(isOpen('c'))
        .where(rowClaim.free(now, 'c'))
        .orderBy('c.next_attempt_at')
        .orderBy('c.id');
      if (webhookId !== undefined) due = due.where('c.webhook_id', '=', webhookId);
      const claimed = await db
        .updateTable('webhook_deliveries')
        .set((eb) => ({ status: 'delivering', attempts: eb('attempts', '+', 1), lease_until: leaseUntil, updated_at: now }))
        .where('id', 'in', rowClaim.pick(due, dialect, limit))
        .returning('id')
        .execute();
      const ids = claimed.map((r) => r.id);
      if (ids.length === 0) return [];
      const rows = await db
        .selectFrom('webhook_deliveries as d')
        .innerJoin('events as e', 'e.seq', 'd.event_seq')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .select([
          'd.id',
          'd.event_id',
          'e.type as event_type',
          'e.body',
          'd.webhook_id',
          'w.url',
          'w.secret',
          'd.attempts',
          'd.lease_until',
        ])
        .where('d.id', 'in', ids)
        .orderBy('d.id')
        .execute();
      return rows.map((r) => ({ ...r, lease_until: Number(r.lease_until) }));
    },

    /**
     * Records an attempt and moves the delivery on, only while this claim still holds its lease
     * (an expired one may have been claimed again meanwhile). Returns whether it did.
     */
    async complete(d: ClaimedDelivery, outcome: AttemptOutcome): Promise<boolean> {
      const r = await db
        .updateTable('webhook_deliveries')
        .set({
          status: outcome.status,
          next_attempt_at: outcome.nextAttemptAt,
          lease_until: null,
          last_status: outcome.statusCode,
          last_error: outcome.error,
          updated_at: outcome.at,
        })
        .where('id', '=', d.id)
        .where('status', '=', 'delivering')
        .where('lease_until', '=', d.lease_until)
        .executeTakeFirst();
      await db
        .insertInto('webhook_attempts')
        .values({
          delivery_id: d.id,
          webhook_id: d.webhook_id,
          event_id: d.event_id,
          event_type: d.event_type,
          attempt: d.attempts,
          status_code: outcome.statusCode,
          error: outcome.error,
          at: outcome.at,
          duration_ms: outcome.durationMs,
        })
        .execute();
      return Number(r.numUpdatedRows) > 0;
    },
  };
}
