// The outbox: events in commit order, their fan-out to subscriptions, reads by seq, retention.
import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../../core/db/connection.js';
import type { Database, EventRow } from '../../core/db/schema.js';
import { chunks } from '../../core/db/chunks.js';
import { networkCursor } from './predicates.js';

// Taken before an event is numbered and held to commit, so commit order is seq order: else a tailer
// that read seq 6 could skip a seq 5 committed later.
const COMMIT_ORDER_LOCK = 0x5345565453455654n;

import type { NewEvent } from '../../core/outbox.js';
export type { NewEvent };

export type StreamEvent = Pick<EventRow, 'seq' | 'id' | 'type' | 'body'>;

export function eventsRepository(db: Kysely<Database>, dialect: Dialect) {
  return {
    /** PostgreSQL: queue behind other writers of events until this transaction ends (SQLite has one writer). */
    async lockCommitOrder(): Promise<void> {
      if (dialect === 'postgres') await sql`SELECT pg_advisory_xact_lock(${COMMIT_ORDER_LOCK.toString()}::bigint)`.execute(db);
    },

    /**
     * Writes the events, and nothing else: their webhook deliveries and network pushes are
     * derived from them after the commit (webhooksRepository.fanOut, networkPushesRepository.queueChanges).
     */
    async insert(events: NewEvent[]): Promise<void> {
      for (const part of chunks(events)) await db.insertInto('events').values(part).execute();
    },

    /** Events after seq, in order. */
    after(seq: number, limit: number): Promise<StreamEvent[]> {
      return db.selectFrom('events').select(['seq', 'id', 'type', 'body']).where('seq', '>', seq).orderBy('seq').limit(limit).execute();
    },

    async seqOf(id: string): Promise<number | null> {
      return (await db.selectFrom('events').select('seq').where('id', '=', id).executeTakeFirst())?.seq ?? null;
    },

    async findById(id: string): Promise<EventRow | undefined> {
      return db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async lastSeq(): Promise<number> {
      const row = await db
        .selectFrom('events')
        .select((eb) => eb.fn.max('seq').as('seq'))
        .executeTakeFirst();
      return row?.seq ?? 0;
    },

    /** Retention: events older than `before` that nothing still waits for, their finished deliveries, and old attempts. */
    async prune(before: number): Promise<{ events: number; attempts: number }> {
      const events = await sql`DELETE FROM events WHERE created_at < ${before}
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_seq = events.seq AND d.status IN ('pending', 'delivering'))
        AND NOT EXISTS (SELECT 1 FROM webhooks w WHERE w.removed_at IS NULL AND w.disabled_at IS NULL AND w.fanned_out_seq < events.seq)
        AND NOT (events.network_push = 1 AND events.seq > ${networkCursor})`.execute(db);
      await sql`DELETE FROM webhook_deliveries WHERE status IN ('succeeded', 'failed') AND updated_at < ${before}
        AND NOT EXISTS (SELECT 1 FROM events e WHERE e.seq = webhook_deliveries.event_seq)`.execute(db);
      const attempts = await db.deleteFrom('webhook_attempts').where('at', '<', before).executeTakeFirst();
      return { events: Number(events.numAffectedRows ?? 0), attempts: Number(attempts.numDeletedRows) };
    },
  };
}

export type EventsRepository = ReturnType<typeof eventsRepository>;
