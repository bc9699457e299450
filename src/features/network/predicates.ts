// Conditions over the network pushes and the outbox cursor, for the queries of the outbox.
import { type RawBuilder, sql } from 'kysely';

// A literal, not a bound parameter: SQLite uses the partial index network_pushes_due_idx only then.
export const pendingPush = sql<boolean>`network_pushes.status = 'pending'`;

/** How far the network sync has taken the outbox (its row in outbox_cursors), as a subquery. */
export const networkCursor: RawBuilder<number> = sql<number>`(SELECT c.seq FROM outbox_cursors c WHERE c.name = 'network')`;
