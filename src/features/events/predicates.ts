// Conditions over the outbox, for the figures and the stream.
import { type RawBuilder, sql } from 'kysely';

/** The seq of the newest event (0 when there is none), as a subquery: one seek of the key. */
export const lastEventSeq: RawBuilder<number> = sql<number>`(SELECT COALESCE(MAX(seq), 0) FROM events)`;

/** How far the network sync has taken the outbox (its row in outbox_cursors), as a subquery. */
export const networkCursor: RawBuilder<number> = sql<number>`(SELECT c.seq FROM outbox_cursors c WHERE c.name = 'network')`;
