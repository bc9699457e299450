// Conditions over webhook subscriptions, for the outbox's fan-out.
import { type RawBuilder, sql } from 'kysely';
import { NAMED_ONLY_EVENT_TYPES } from '../events/domain.js';

/**
 * The subscription (`webhooks` alias `w`) takes events of this type: it has no filter and the type is
 * not one only named subscriptions get (contract §17), or its filter (",type,type,") names the type.
 */
export function subscriptionTakes(w: string, type: RawBuilder<unknown>): RawBuilder<boolean> {
  const events = sql.ref(`${w}.events`);
  const named = sql.join(NAMED_ONLY_EVENT_TYPES.map((t) => sql.lit(t)));
  return sql<boolean>`((${events} IS NULL AND ${type} NOT IN (${named})) OR ${events} LIKE '%,' || ${type} || ',%')`;
}
