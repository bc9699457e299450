// Conditions over webhook subscriptions, for the outbox's fan-out.
import { type RawBuilder, sql } from 'kysely';

/** The subscription (`webhooks` alias `w`) takes events of this type: it has no filter, or its filter (",type,type,") names the type. */
export function subscriptionTakes(w: string, type: RawBuilder<unknown>): RawBuilder<boolean> {
  const events = sql.ref(`${w}.events`);
  return sql<boolean>`(${events} IS NULL OR ${events} LIKE '%,' || ${type} || ',%')`;
}
