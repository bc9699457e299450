// Conditions shared by several queries, written once. Each mirrors a rule of src/domain/.
import { type RawBuilder, sql } from 'kysely';

/**
 * The endorsement is active at `now` (isActiveEndorsement in src/domain/endorsements.ts), for the
 * `endorsements` table or an alias of it.
 */
export function activeEndorsement(now: number, table = 'endorsements'): RawBuilder<boolean> {
  const col = (name: string) => sql.ref(`${table}.${name}`);
  return sql<boolean>`(${col('revoked')} = 0 and ${col('valid_from')} <= ${now} and (${col('valid_to')} is null or ${col('valid_to')} > ${now}))`;
}
