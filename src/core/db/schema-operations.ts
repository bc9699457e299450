// Table types of Sector's own operation, beside the division's data (schema.ts): the outbox and
// its deliveries, leases, the audit log, members' sessions and the roster sync's staging.
import type { Generated } from 'kysely';

export interface EventsTable {
  /** Commit order: a reader that sees seq N has seen every lower seq (see features/events/events.repository.ts). */
  seq: Generated<number>;
  /** evt_ + 26 sortable characters; the webhook-id of every delivery of the event. */
  id: string;
  type: string;
  booking_id: number | null;
  /** The exact JSON delivered and streamed. */
  body: string;
  created_at: number;
  /** 1: a change made through the API while network sync was configured, still to be pushed to the network. */
  network_push: Generated<number>;
}

export interface WebhooksTable {
  id: string;
  url: string;
  /** ",type,type," for a filter, null for every type. */
  events: string | null;
  /** whsec_…: needed in clear to sign; never listed or logged. */
  secret: string;
  created_at: number;
  removed_at: number | null;
  /** Events up to this seq have their deliveries to this subscription queued. */
  fanned_out_seq: number;
  /** When the current run of failed attempts began (null: the last attempt succeeded, or none failed). */
  failing_since: number | null;
  /** Set when its attempts kept failing for WEBHOOK_DISABLE_AFTER_HOURS: nothing is fanned out to it. */
  disabled_at: number | null;
  disabled_reason: string | null;
}

/** One row per lease: whoever holds it does what it names, alone across instances (src/core/workers/lease.ts). */
export interface JobLeasesTable {
  name: string;
  owner: string;
  /** When the current (or last) holder took it. */
  started_at: number;
  /** Until then nobody else takes it, unless its holder lets go first. */
  lease_until: number;
  /** A scheduled worker's next run: not taken for one before then (null: due now). */
  next_run_at: number | null;
  last_success_at: number | null;
}

/** How far a consumer of the outbox has taken events ('network': the network sync's pushes). */
export interface OutboxCursorsTable {
  name: string;
  seq: number;
}

export type DeliveryStatus = 'pending' | 'delivering' | 'succeeded' | 'failed';

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  event_seq: number;
  event_id: string;
  webhook_id: string;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: number;
  lease_until: number | null;
  last_status: number | null;
  last_error: string | null;
  created_at: number;
  updated_at: number;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  webhook_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  at: number;
  duration_ms: number;
}

export type NetworkPushStatus = 'pending' | 'done' | 'refused';

/** What one booking owes the network's bookings service (see migration 0008). */
export interface NetworkPushesTable {
  booking_id: number;
  status: NetworkPushStatus;
  /** Bumped by every change of the booking; a push marks done only the version it sent. */
  version: number;
  attempts: number;
  next_attempt_at: number;
  /** While a push is under way: until when its claimant holds the row, and who that is. */
  lease_until: number | null;
  lease_owner: string | null;
  /** JSON body of a POST whose response was not seen (it may have reached the network). */
  posted: string | null;
  /** HTTP status of the last response (null: none, e.g. a connection error). */
  last_status: number | null;
  last_error: string | null;
  updated_at: number;
  /** Since when the booking has been waiting to be pushed to the network (set when the row becomes pending; left as it was once done or refused). */
  pending_since: number | null;
}

export interface AuditLogTable {
  id: Generated<number>;
  /** Unix milliseconds of the change. */
  at: number;
  /** `key:<id>` or `cli`. */
  actor: string;
  /** The key's name when the actor is a key (it may be renamed or reused later). */
  actor_name: string | null;
  action: string;
  target: string;
  /** JSON of the changed fields as they were, or null. */
  before: string | null;
  /** JSON of the changed fields as they became, or null. */
  after: string | null;
}

/** A signed-in member's session (migration 0014): the id itself is only in the member's cookie. */
export interface SessionsTable {
  /** SHA-256 (hex) of the session id. */
  id_hash: string;
  user_id: number;
  /** Secret the session's CSRF tokens are made from and checked against. */
  csrf_secret: string;
  created_at: number;
  last_seen_at: number;
}

/** A sign-in under way: its OAuth2 state (hashed), the browser it belongs to and its PKCE verifier. */
export interface LoginStatesTable {
  state_hash: string;
  /** SHA-256 (hex) of the random value in the browser's sign-in cookie. */
  browser_hash: string;
  code_verifier: string;
  /** The same-origin path to return to. */
  next: string;
  created_at: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

/** A member's own calendar feed address (/calendar/member/<secret>.ics); renewing replaces the secret. */
export interface MemberCalendarsTable {
  user_id: number;
  secret: string;
  created_at: number;
}

/** A roster sync's members as read from the network, marked with the run's lease. */
export interface RosterStagingTable {
  run_id: string;
  id: number;
  /** 'roster': from the roster; 'member': a leaver's own record; 'unknown': a leaver the network no longer knows. */
  kind: 'roster' | 'member' | 'unknown';
  rating: number | null;
  region: string | null;
  division: string | null;
  subdivision: string | null;
  /** 1 when email and names were given (the roster), 0 when not (a member's own record). */
  personal: number;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
}

/** An Idempotency-Key of an API key: claimed by its first request, then its stored response (src/features/bookings/idempotency.service.ts). */
export interface IdempotencyKeysTable {
  api_key_id: string;
  key: string;
  /** sha256 (hex) of the route and the canonical body: a repeat must match it. */
  request_hash: string;
  /** 'running' while its request is processed; 'done' once its response is stored. */
  state: 'running' | 'done';
  status: number | null;
  /** The JSON response body, as sent. */
  response_body: string | null;
  /** The current claim's own token: only its holder stores the response. */
  claim_token: string;
  claimed_at: number;
  /** A key expires 24 hours after it was first claimed. */
  created_at: number;
}
