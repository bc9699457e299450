// Webhook subscriptions: added, listed, removed, disabled and enabled again, and what was
// attempted for them. Their delivery queue is in webhook-deliveries.ts.
import { sql, type Kysely, type Selectable } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database, WebhookRow } from '../../core/db/schema.js';
import type { WebhookAttemptsTable } from '../../core/db/schema-operations.js';
import { FAN_OUT_LOCK, isOpen } from './deliveries.repository.js';
import { lastEventSeq, subscriptionTakes } from '../../core/db/predicates.js';

export type WebhookListing = Omit<WebhookRow, 'secret' | 'fanned_out_seq' | 'failing_since'>;

const LISTED = ['id', 'url', 'events', 'created_at', 'removed_at', 'disabled_at', 'disabled_reason'] as const;

export type AttemptListing = Omit<Selectable<WebhookAttemptsTable>, 'id' | 'delivery_id' | 'webhook_id'>;

export function webhooksRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** Adds a subscription that takes the events committed from now on. */
    async add(row: Omit<WebhookRow, 'fanned_out_seq' | 'failing_since' | 'disabled_at' | 'disabled_reason'>): Promise<void> {
      await db
        .insertInto('webhooks')
        .values({ ...row, fanned_out_seq: lastEventSeq })
        .execute();
    },

    /** Subscriptions without their secrets. */
    list(): Promise<WebhookListing[]> {
      return db.selectFrom('webhooks').select(LISTED).orderBy('created_at').orderBy('id').execute();
    },

    find(id: string): Promise<WebhookListing | undefined> {
      return db.selectFrom('webhooks').select(LISTED).where('id', '=', id).executeTakeFirst();
    },

    /**
     * Ends a subscription: events committed later are not fanned out to it, and its open
     * deliveries are closed as failed. One being sent right now may still reach the receiver.
     */
    async remove(id: string, now: number): Promise<boolean> {
      // Not while a fan-out is queuing deliveries that this would have to close.
      if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${FAN_OUT_LOCK.toString()}::bigint)`.execute(db);
      const r = await db
        .updateTable('webhooks')
        .set({ removed_at: now })
        .where('id', '=', id)
        .where('removed_at', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return false;
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', lease_until: null, last_error: 'subscription removed', updated_at: now })
        .where('webhook_id', '=', id)
        .where('status', 'in', ['pending', 'delivering'])
        .execute();
      return true;
    },

    /**
     * Notes an attempt's outcome. When every attempt since `disableBefore` failed, the subscription is
     * disabled and its waiting deliveries failed. Returns whether this call disabled it.
     */
    async noteHealth(id: string, ok: boolean, at: number, disableBefore: number, reason: string): Promise<boolean> {
      if (ok) {
        await db.updateTable('webhooks').set({ failing_since: null }).where('id', '=', id).where('failing_since', 'is not', null).execute();
        return false;
      }
      await db.updateTable('webhooks').set({ failing_since: at }).where('id', '=', id).where('failing_since', 'is', null).execute();
      const due = await db
        .selectFrom('webhooks')
        .select('id')
        .where('id', '=', id)
        .where('removed_at', 'is', null)
        .where('disabled_at', 'is', null)
        .where('failing_since', '<=', disableBefore)
        .executeTakeFirst();
      if (!due) return false;
      // Not while a fan-out is queuing deliveries that this would have to close.
      if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${FAN_OUT_LOCK.toString()}::bigint)`.execute(db);
      const r = await db
        .updateTable('webhooks')
        .set({ disabled_at: at, disabled_reason: reason })
        .where('id', '=', id)
        .where('disabled_at', 'is', null)
        .executeTakeFirst();
      if (Number(r.numUpdatedRows) === 0) return false;
      await db
        .updateTable('webhook_deliveries')
        .set({ status: 'failed', lease_until: null, last_error: 'subscription disabled', updated_at: at })
        .where('webhook_id', '=', id)
        .where(isOpen('webhook_deliveries'))
        .execute();
      return true;
    },

    /** Turns a disabled subscription back on for the events committed from now on. */
    async enable(id: string): Promise<boolean> {
      if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${FAN_OUT_LOCK.toString()}::bigint)`.execute(db);
      const r = await db
        .updateTable('webhooks')
        .set({ disabled_at: null, disabled_reason: null, failing_since: null, fanned_out_seq: lastEventSeq })
        .where('id', '=', id)
        .where('removed_at', 'is', null)
        .where('disabled_at', 'is not', null)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    /** Queues the event again for one active subscription, or for every active one whose filter takes it. */
    async redeliver(event: { seq: number; id: string; type: string }, to: string | null, now: number): Promise<number> {
      const r =
        await sql`INSERT INTO webhook_deliveries (event_seq, event_id, webhook_id, status, attempts, next_attempt_at, created_at, updated_at)
        SELECT ${event.seq}, ${event.id}, w.id, 'pending', 0, ${now}, ${now}, ${now} FROM webhooks w
        WHERE w.removed_at IS NULL AND w.disabled_at IS NULL AND ${to === null ? subscriptionTakes('w', sql`${event.type}`) : sql`w.id = ${to}`}
        ORDER BY w.id`.execute(db);
      return Number(r.numAffectedRows ?? 0);
    },

    /** The most recent attempts of a subscription, newest first. */
    attempts(webhookId: string, limit: number): Promise<AttemptListing[]> {
      return db
        .selectFrom('webhook_attempts')
        .select(['event_id', 'event_type', 'attempt', 'status_code', 'error', 'at', 'duration_ms'])
        .where('webhook_id', '=', webhookId)
        .orderBy('id', 'desc')
        .limit(limit)
        .execute();
    },
  };
}

export type WebhooksRepository = ReturnType<typeof webhooksRepository>;
