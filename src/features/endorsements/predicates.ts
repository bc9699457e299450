// Conditions over endorsements that other features' queries use too (the users list, positions).
import { type RawBuilder, sql } from 'kysely';

/**
 * The endorsement is active at `now` (isActiveEndorsement in src/features/endorsements/domain.ts), for the
 * `endorsements` table or an alias of it.
 */
export function activeEndorsement(now: number, table = 'endorsements'): RawBuilder<boolean> {
  const col = (name: string) => sql.ref(`${table}.${name}`);
  return sql<boolean>`(${col('revoked')} = 0 and ${col('valid_from')} <= ${now} and (${col('valid_to')} is null or ${col('valid_to')} > ${now}))`;
}
