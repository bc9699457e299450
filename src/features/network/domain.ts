// Pure rules of pushing bookings to the network's ATC bookings service: what to send for a
// booking's current state, and what a response means.
import { ymdHis } from '../../core/domain/time.js';

/** The network's booking types. Its code takes `training` (its published OpenAPI still says `mentoring`). */
export type NetworkBookingType = 'booking' | 'event' | 'exam' | 'training';

/** The body of POST/PUT {url}/booking: the fields the network stores. */
export interface NetworkBookingBody {
  callsign: string;
  cid: number;
  type: NetworkBookingType;
  start: string;
  end: string;
  division?: string;
  subdivision?: string;
}

/** What the pusher knows of a booking when it pushes it. */
export interface PushedBooking {
  callsign: string;
  user_id: number;
  time_start: number;
  time_end: number;
  training: number;
  exam: number;
  event: number;
  deleted: number;
  network_booking: string | null;
}

export interface Division {
  division: string | null;
  subdivisions: readonly string[];
}

// The network has one type per booking, Sector has flags (forced training may sit beside exam or
// event): the booker's choice wins, event, then exam, then training.
export function networkType(b: Pick<PushedBooking, 'training' | 'exam' | 'event'>): NetworkBookingType {
  if (b.event) return 'event';
  if (b.exam) return 'exam';
  if (b.training) return 'training';
  return 'booking';
}

/**
 * The network refuses a subdivision without a division, so the subdivision is sent only with the
 * division, and only when SUBDIVISIONS names exactly one.
 */
export function networkBody(b: PushedBooking, d: Division): NetworkBookingBody {
  const body: NetworkBookingBody = {
    callsign: b.callsign,
    cid: b.user_id,
    type: networkType(b),
    start: ymdHis(b.time_start),
    end: ymdHis(b.time_end),
  };
  if (d.division) {
    body.division = d.division;
    if (d.subdivisions.length === 1) body.subdivision = d.subdivisions[0]!;
  }
  return body;
}

export type PushAction =
  | { kind: 'nothing' }
  /** Before sending anything, find out whether an earlier POST whose response was lost reached the network. */
  | { kind: 'lookup'; posted: NetworkBookingBody }
  | { kind: 'create'; body: NetworkBookingBody }
  | { kind: 'update'; id: string; body: NetworkBookingBody }
  | { kind: 'delete'; id: string };

/**
 * Reconciles the network with the booking's current state. An update of a booking never pushed
 * is its create; a delete of a booking never pushed sends nothing.
 */
export function decidePush(b: PushedBooking, posted: NetworkBookingBody | null, d: Division): PushAction {
  if (b.network_booking === null && posted !== null) return { kind: 'lookup', posted };
  if (b.deleted) return b.network_booking === null ? { kind: 'nothing' } : { kind: 'delete', id: b.network_booking };
  const body = networkBody(b, d);
  return b.network_booking === null ? { kind: 'create', body } : { kind: 'update', id: b.network_booking, body };
}

/** An entry of the network's list (GET {url}/booking). */
export interface NetworkListedBooking {
  id: unknown;
  callsign?: unknown;
  cid?: unknown;
  start?: unknown;
  end?: unknown;
}

/** The network's id of the booking an earlier POST created, if the list shows it. */
export function findPosted(list: readonly NetworkListedBooking[], posted: NetworkBookingBody): string | null {
  const hit = list.find(
    (x) => x.callsign === posted.callsign && Number(x.cid) === posted.cid && x.start === posted.start && x.end === posted.end,
  );
  return hit && (typeof hit.id === 'number' || typeof hit.id === 'string') ? String(hit.id) : null;
}

export type Outcome =
  /** The network has the booking's state. */
  | { kind: 'done' }
  /** It will not take it (its message says why): not retried until an operator says so. */
  | { kind: 'refused' }
  /**
   * It may pass: try again after a backoff. `operator` marks what only an operator can make pass
   * (a rejected key, a redirect from a wrong URL): retried, and logged as an error.
   */
  | { kind: 'retry'; operator: boolean }
  /** The network no longer knows the id: send the booking as new, now. */
  | { kind: 'lost' };

/** What an HTTP response (null: no response at all — connection error or timeout) means for a push. */
export function classifyResponse(method: 'POST' | 'PUT' | 'DELETE', status: number | null): Outcome {
  if (status === null) return { kind: 'retry', operator: false };
  if (status >= 200 && status < 300) return { kind: 'done' };
  if (status === 404 && method === 'DELETE') return { kind: 'done' };
  if (status === 404 && method === 'PUT') return { kind: 'lost' };
  // A wrong or replaced key rejects every push; refusing them would lose each one made meanwhile.
  // A redirect is not followed: NETWORK_BOOKINGS_URL is likely wrong.
  if (status === 401 || (status >= 300 && status < 400)) return { kind: 'retry', operator: true };
  if (status === 408 || status === 429 || status >= 500 || status < 200) return { kind: 'retry', operator: false };
  return { kind: 'refused' };
}

/**
 * A look-up of an earlier create (GET {url}/booking) that did not settle: only a 200 response with a
 * JSON array does. Whatever else came is a failure to retry, never a success or a refusal.
 */
export function classifyLookup(status: number | null): Outcome {
  const outcome = classifyResponse('POST', status);
  return outcome.kind === 'retry' ? outcome : { kind: 'retry', operator: false };
}

const HOUR = 3_600_000;

/**
 * The wait a 429 or 503 asks for with Retry-After (delay-seconds or an HTTP-date), in ms from
 * `now`, at most an hour (the longest backoff); null when there is none or it cannot be read.
 */
export function retryAfterMs(status: number | null, header: string | undefined, now: number): number | null {
  if ((status !== 429 && status !== 503) || header === undefined) return null;
  const text = header.trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : /[a-z]/i.test(text) ? Date.parse(text) - now : NaN;
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), HOUR) : null;
}

/** Delay before attempt n+1 after n failed ones: base, doubling, capped at one hour. */
export function retryDelay(attempts: number, baseMs: number): number {
  const exponent = Math.min(Math.max(attempts - 1, 0), 40);
  return Math.min(baseMs * 2 ** exponent, HOUR);
}

const MAX_ERROR_LENGTH = 500;

/**
 * One line from the network's response: its `message`, `error`, and the per-field messages
 * (a Laravel 422 response holds `{"field": ["…"]}`, newer versions under `errors`).
 */
export function describeResponse(status: number, body: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    parsed = undefined;
  }
  const parts: string[] = [];
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const o = parsed as Record<string, unknown>;
    for (const k of ['message', 'error']) if (typeof o[k] === 'string') parts.push(o[k]);
    const fields = o['errors'] !== null && typeof o['errors'] === 'object' ? (o['errors'] as Record<string, unknown>) : o;
    for (const [field, messages] of Object.entries(fields)) {
      if (Array.isArray(messages)) parts.push(`${field}: ${messages.filter((m) => typeof m === 'string').join(' ')}`);
    }
  }
  const text = parts.length > 0 ? parts.join('; ') : body.trim() === '' ? 'no message' : body.trim();
  return `HTTP ${status}: ${text}`.replace(/\s+/g, ' ').slice(0, MAX_ERROR_LENGTH);
}
