// What the outboxes still owe, counted for the metrics: webhook deliveries and network pushes by
// status, and the age of the oldest one waiting. Two grouped statements, whatever the backlog.
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

export interface OutboxFigures {
  /** Webhook deliveries by status (pending, delivering, succeeded, failed). */
  deliveries: Record<string, number>;
  /** Network pushes by status (pending, done, refused). */
  pushes: Record<string, number>;
  /** Unix ms of the oldest delivery not yet made (pending or delivering), or null. */
  oldestOpenDeliveryAt: number | null;
}

export function outboxFiguresRepository(db: Kysely<Database>) {
  return {
    async read(): Promise<OutboxFigures> {
      const [deliveries, pushes] = await Promise.all([
        db
          .selectFrom('webhook_deliveries')
          .select((eb) => ['status', eb.fn.countAll<number | string>().as('n'), eb.fn.min<number | string>('created_at').as('oldest')])
          .groupBy('status')
          .execute(),
        db
          .selectFrom('network_pushes')
          .select((eb) => ['status', eb.fn.countAll<number | string>().as('n')])
          .groupBy('status')
          .execute(),
      ]);
      const open = deliveries.filter((d) => d.status === 'pending' || d.status === 'delivering').map((d) => Number(d.oldest));
      return {
        deliveries: Object.fromEntries(deliveries.map((d) => [d.status, Number(d.n)])),
        pushes: Object.fromEntries(pushes.map((p) => [p.status, Number(p.n)])),
        oldestOpenDeliveryAt: open.length > 0 ? Math.min(...open) : null,
      };
    },
  };
}

export type OutboxFiguresRepository = ReturnType<typeof outboxFiguresRepository>;
