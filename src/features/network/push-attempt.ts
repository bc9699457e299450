// One push of one claimed booking: decide what the network must be told, send it, and record
// what the response means. The claim stays the pusher's throughout: every write below is made only
// while this process still holds the row's lease.
import type { NetworkConfig } from '../../config.js';
import {
  classifyResponse,
  decidePush,
  describeResponse,
  type Division,
  findPosted,
  type NetworkBookingBody,
  type NetworkListedBooking,
  type Outcome,
  type PushedBooking,
  classifyLookup,
  retryAfterMs,
  retryDelay,
} from './domain.js';
import type { Clock } from '../../core/domain/time.js';
import type { ReadRepositories } from '../../app/repositories.js';
import type { ClaimedPush, NetworkPushesRepository, PushResult } from './pushes.repository.js';
import type { Writer } from '../../core/write.js';

export type PushMethod = 'POST' | 'PUT' | 'DELETE';

/** The bookings service's response to one request. */
export interface NetworkResponse {
  /** null when no response came: connection refused or reset, timeout, or the pusher stopping. */
  status: number | null;
  body: string;
  /** Why there was no response (status null). */
  error?: string;
  /** The response's Retry-After header, as sent. */
  retryAfter?: string | undefined;
}

/** What an attempt came to, for the pusher to log and count. */
export interface Attempted {
  /** null when nothing had to be sent (a booking deleted before it was ever pushed). */
  method: PushMethod | null;
  outcome: Outcome;
  status: number | null;
  error: string | null;
}

export interface AttemptContext {
  writer: Writer;
  repos: ReadRepositories;
  config: Pick<NetworkConfig, 'retryBaseMs'>;
  division: Division;
  clock: Clock;
  /** The pusher holding the claim. */
  owner: string;
  send(method: 'GET' | PushMethod, path: string, body?: unknown): Promise<NetworkResponse>;
}

/** The pushes' bookkeeping, each write a transaction of its own. */
const write = <T>(ctx: AttemptContext, fn: (pushes: NetworkPushesRepository) => Promise<T>): Promise<T> =>
  ctx.writer.write((w) => fn(w.repos.networkPushes));

/** Makes the push; null when the claim was lost before anything was sent (nothing to report). */
export async function attemptPush(ctx: AttemptContext, claim: ClaimedPush): Promise<Attempted | null> {
  const id = claim.booking_id;
  const booking: PushedBooking | undefined = await ctx.repos.bookings.findById(id);
  if (!booking) return finish(ctx, claim, null, { kind: 'done' }, null, null);
  let posted: NetworkBookingBody | null = claim.posted === null ? null : (JSON.parse(claim.posted) as NetworkBookingBody);
  let action = decidePush(booking, posted, ctx.division);

  if (action.kind === 'lookup') {
    const found = await lookUp(ctx, action.posted);
    if (typeof found === 'object' && found !== null) {
      const { response, why } = found;
      return finish(
        ctx,
        claim,
        'POST',
        classifyLookup(response.status),
        response.status,
        `looking for an earlier create: ${why}`,
        response,
      );
    }
    const held = await write(ctx, async (pushes) => {
      if (found !== null && !(await pushes.setNetworkId(id, found, ctx.owner))) return false;
      return pushes.notePosted(id, ctx.owner, null);
    });
    // Another pusher took the claim over meanwhile: the booking is its to push now.
    if (!held) return null;
    posted = null;
    action = decidePush({ ...booking, network_booking: found }, posted, ctx.division);
  }

  switch (action.kind) {
    case 'lookup': // decided without `posted`: cannot happen again
    case 'nothing':
      return finish(ctx, claim, null, { kind: 'done' }, null, null);
    case 'create': {
      // Noted before sending: if the response is lost, the next attempt looks before posting again.
      if (!(await write(ctx, (pushes) => pushes.notePosted(id, ctx.owner, JSON.stringify(action.body))))) return null;
      const response = await ctx.send('POST', 'booking', action.body);
      return finishCreate(ctx, claim, response);
    }
    case 'update': {
      const response = await ctx.send('PUT', `booking/${encodeURIComponent(action.id)}`, action.body);
      return finishResponse(ctx, claim, 'PUT', response);
    }
    case 'delete': {
      const response = await ctx.send('DELETE', `booking/${encodeURIComponent(action.id)}`);
      return finishResponse(ctx, claim, 'DELETE', response);
    }
  }
}

/** The network's id of an earlier POST from its list for that day, or null. Only a 200 JSON array tells; else a failure (§11). */
async function lookUp(
  ctx: AttemptContext,
  posted: NetworkBookingBody,
): Promise<string | null | { response: NetworkResponse; why: string }> {
  const query = new URLSearchParams({ key_only: '1', callsign: posted.callsign, date: posted.start.slice(0, 10) });
  const response = await ctx.send('GET', `booking?${query.toString()}`);
  if (response.status === 200) {
    let list: unknown;
    try {
      list = JSON.parse(response.body);
    } catch {
      list = undefined;
    }
    if (Array.isArray(list)) return findPosted(list as NetworkListedBooking[], posted);
    return { response, why: 'HTTP 200: the list of bookings was not a JSON array' };
  }
  const why = response.status === null ? (response.error ?? 'no response') : describeResponse(response.status, response.body);
  return { response, why };
}

async function finishCreate(ctx: AttemptContext, claim: ClaimedPush, response: NetworkResponse): Promise<Attempted> {
  const outcome = classifyResponse('POST', response.status);
  if (outcome.kind !== 'done') {
    // A response other than success means the network stored nothing, unless there was none or a 5xx.
    if (outcome.kind === 'refused' || (outcome.kind === 'retry' && outcome.operator))
      await write(ctx, (pushes) => pushes.notePosted(claim.booking_id, ctx.owner, null));
    return finishResponse(ctx, claim, 'POST', response);
  }
  const networkId = idOf(response.body);
  if (networkId === null) {
    // Stored, probably, but without its id we cannot update it: look it up on the next attempt.
    return finish(
      ctx,
      claim,
      'POST',
      { kind: 'retry', operator: false },
      response.status,
      describeResponse(response.status!, 'the response carried no booking id'),
    );
  }
  const now = ctx.clock();
  await write(ctx, async (pushes) => {
    if (!(await pushes.setNetworkId(claim.booking_id, networkId, ctx.owner))) return;
    await pushes.notePosted(claim.booking_id, ctx.owner, null);
    await pushes.finish(
      claim.booking_id,
      ctx.owner,
      claim.version,
      resultOf(ctx, { kind: 'done' }, claim, response.status, null, now),
      now,
    );
  });
  return { method: 'POST', outcome: { kind: 'done' }, status: response.status, error: null };
}

async function finishResponse(ctx: AttemptContext, claim: ClaimedPush, method: PushMethod, response: NetworkResponse): Promise<Attempted> {
  const outcome = classifyResponse(method, response.status);
  const error =
    response.status === null
      ? (response.error ?? 'no response')
      : outcome.kind === 'done'
        ? null
        : describeResponse(response.status, response.body);
  if (outcome.kind === 'lost') {
    // The network no longer has the booking (removed there): send it as new.
    const now = ctx.clock();
    await write(ctx, async (pushes) => {
      if (!(await pushes.setNetworkId(claim.booking_id, null, ctx.owner))) return;
      await pushes.finish(claim.booking_id, ctx.owner, claim.version, resultOf(ctx, outcome, claim, response.status, error, now), now);
    });
    return { method, outcome, status: response.status, error: null };
  }
  return finish(ctx, claim, method, outcome, response.status, error, response);
}

/** `response`: the network's response, whose Retry-After (on a 429 or 503) delays the next attempt. */
async function finish(
  ctx: AttemptContext,
  claim: ClaimedPush,
  method: PushMethod | null,
  outcome: Outcome,
  status: number | null,
  error: string | null,
  response?: NetworkResponse,
): Promise<Attempted> {
  const now = ctx.clock();
  const notBefore = retryAfterMs(status, response?.retryAfter, now);
  await write(ctx, (pushes) =>
    pushes.finish(claim.booking_id, ctx.owner, claim.version, resultOf(ctx, outcome, claim, status, error, now, notBefore), now),
  );
  return { method, outcome, status, error };
}

/** The row's new state after a response: done, refused for good, due again now, or due after a backoff. */
function resultOf(
  ctx: AttemptContext,
  outcome: Outcome,
  claim: ClaimedPush,
  status: number | null,
  error: string | null,
  now: number,
  /** A wait the network asked for (Retry-After): the backoff is at least this long. */
  notBefore: number | null = null,
): PushResult {
  switch (outcome.kind) {
    case 'done':
      return { status: 'done', next_attempt_at: now, last_status: status, last_error: null, resetAttempts: true };
    case 'refused':
      return { status: 'refused', next_attempt_at: now, last_status: status, last_error: error, resetAttempts: false };
    case 'lost':
      return { status: 'pending', next_attempt_at: now, last_status: status, last_error: error, resetAttempts: true };
    case 'retry':
      return {
        status: 'pending',
        next_attempt_at: now + Math.max(retryDelay(claim.attempts, ctx.config.retryBaseMs), notBefore ?? 0),
        last_status: status,
        last_error: error,
        resetAttempts: false,
      };
  }
}

/** The booking id in the network's 201 response. */
function idOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as unknown;
    const id = parsed !== null && typeof parsed === 'object' ? (parsed as { id?: unknown }).id : undefined;
    return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : null;
  } catch {
    return null;
  }
}
