// What the outboxes still owe, for the metrics: deliveries and pushes by status and the age of the oldest
// waiting (events not yet fanned out count as pending), in four grouped statements.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';
import { networkCursor } from '../events/predicates.js';
import { subscriptionTakes } from '../webhooks/predicates.js';

export interface OutboxFigures {
  /** Webhook deliveries by status (pending, delivering, succeeded, failed). */
  deliveries: Record<string, number>;
  /** Network pushes by status (pending, done, refused). */
  pushes: Record<string, number>;
  /** Unix ms of the oldest delivery not yet made (pending or delivering), or null. */
  oldestOpenDeliveryAt: number | null;
  /** Unix ms since which the booking pending for the network longest has been waiting, or null. */
  oldestPendingPushAt: number | null;
}

export function outboxFiguresRepository(db: Kysely<Database>) {
  return {
    async read(): Promise<OutboxFigures> {
      const [deliveries, pushes, unqueued, unqueuedPushes] = await Promise.all([
        db
          .selectFrom('webhook_deliveries')
          .select((eb) => ['status', eb.fn.countAll<number | string>().as('n'), eb.fn.min<number | string>('created_at').as('oldest')])
          .groupBy('status')
          .execute(),
        db
          .selectFrom('network_pushes')
          .select((eb) => ['status', eb.fn.countAll<number | string>().as('n'), eb.fn.min<number | string>('pending_since').as('oldest')])
          .groupBy('status')
          .execute(),
        sql<{ n: number | string; oldest: number | string | null }>`SELECT COUNT(*) AS n, MIN(e.created_at) AS oldest
          FROM webhooks w JOIN events e ON e.seq > w.fanned_out_seq
          WHERE w.removed_at IS NULL AND ${subscriptionTakes('w', sql.ref('e.type'))}`.execute(db),
        sql<{
          n: number | string;
          oldest: number | string | null;
        }>`SELECT COUNT(DISTINCT e.booking_id) AS n, MIN(e.created_at) AS oldest FROM events e
          WHERE e.network_push = 1 AND e.seq > ${networkCursor}
            AND NOT EXISTS (SELECT 1 FROM network_pushes n WHERE n.booking_id = e.booking_id AND n.status = 'pending')`.execute(db),
      ]);
      const waiting = unqueued.rows[0]!;
      if (Number(waiting.n) > 0) deliveries.push({ status: 'pending', n: Number(waiting.n), oldest: Number(waiting.oldest) });
      const waitingPushes = unqueuedPushes.rows[0]!;
      const byStatus = sumByStatus(pushes);
      if (Number(waitingPushes.n) > 0) byStatus.pending = (byStatus.pending ?? 0) + Number(waitingPushes.n);
      const open = deliveries.filter((d) => d.status === 'pending' || d.status === 'delivering').map((d) => Number(d.oldest));
      const pending = [...pushes.filter((p) => p.status === 'pending').map((p) => p.oldest as number | string | null), waitingPushes.oldest]
        .filter((at) => at !== null)
        .map(Number);
      return {
        deliveries: sumByStatus(deliveries),
        pushes: byStatus,
        oldestOpenDeliveryAt: open.length > 0 ? Math.min(...open) : null,
        oldestPendingPushAt: pending.length > 0 ? Math.min(...pending) : null,
      };
    },
  };
}

function sumByStatus(rows: Array<{ status: string; n: number | string }>): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const r of rows) sums[r.status] = (sums[r.status] ?? 0) + Number(r.n);
  return sums;
}

export type OutboxFiguresRepository = ReturnType<typeof outboxFiguresRepository>;
