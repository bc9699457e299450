// Conditions over ATC activity that other features' queries use too.
import type { Kysely } from 'kysely';
import type { Database } from '../../core/db/schema.js';

/** Users active in some area, as a subquery: hashed once per statement, never probed per row. */
export const atcActiveUsers = (db: Kysely<Database>) =>
  db.selectFrom('user_area_activity').select('user_area_activity.user_id').where('user_area_activity.active', '=', 1);
