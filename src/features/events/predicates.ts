// Conditions over the outbox, for the figures and the stream.
import { type RawBuilder, sql } from 'kysely';

/** The seq of the newest event (0 when there is none), as a subquery: one seek of the key. */
export const lastEventSeq: RawBuilder<number> = sql<number>`(SELECT COALESCE(MAX(seq), 0) FROM events)`;
