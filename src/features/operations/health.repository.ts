import { type Kysely, sql } from 'kysely';
import type { Database } from '../../core/db/schema.js';

/** The cheapest round trip to the database, for the health check. */
export function healthRepository(db: Kysely<Database>) {
  return {
    async ping(): Promise<void> {
      await sql`select 1`.execute(db);
    },
  };
}

export type HealthRepository = ReturnType<typeof healthRepository>;
