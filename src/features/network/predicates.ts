// Conditions over the network pushes and the outbox cursor, for the queries of the outbox.
import { sql } from 'kysely';

// A literal, not a bound parameter: SQLite uses the partial index network_pushes_due_idx only then.
export const pendingPush = sql<boolean>`network_pushes.status = 'pending'`;
