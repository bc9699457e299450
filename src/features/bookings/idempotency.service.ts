// Idempotency-Key on the bookings' creates (contract §5, "Batches and retries"). The first request
// with a key claims it (an INSERT: the database decides between concurrent repeats, across
// instances), is processed, and its response is stored by the same transaction as its bookings, so a
// change that committed always has a response to replay, even if the process died before sending it.
// A refusal (4xx) or failure changes nothing and lets go of the claim: a retry is processed anew.
import { createHash, randomBytes } from 'node:crypto';
import { InProgressError, ValidationError } from '../../core/domain/errors.js';
import type { IdempotencyKeyRow, KeyOf } from './idempotency-keys.repository.js';
import { rowClaim } from '../../core/db/claims.js';
import type { Write } from '../../app/deps.js';
import type { Deps } from '../../app/deps.js';

/** A key's stored response is replayed for 24 hours; then it is new again, and pruned. */
export const KEY_TTL_MS = 24 * 3_600_000;
/**
 * A claim still running after a minute was left by a process that died (a request gets its
 * response, or fails, well within it): a repeat takes it over. Were its first holder only slow, the
 * holder cannot store its response any more (finish names the claim), so its write rolls back.
 */
export const STALE_CLAIM_MS = 60_000;

/** The request's key, its API key, and the hash of what it asks. */
export interface IdempotencyScope extends KeyOf {
  requestHash: string;
}

/** A response as it is sent: status and JSON body. */
export interface JsonResponse {
  status: number;
  body: unknown;
}

/** The response to send: made now, or replayed as stored (its JSON as first sent). */
export type Outcome = (JsonResponse & { replayed: false }) | { replayed: true; status: number; json: string };

/** Stores the response to `result` inside the write that made it; given to the work by run(). */
export type Sealer<T> = (w: Write, result: T) => Promise<void>;

/** The hash a repeat must match: the route and its body in canonical form (parsed fields, in a fixed order). */
export function requestHash(route: string, canonical: unknown): string {
  return createHash('sha256')
    .update(`${route}\n${JSON.stringify(canonical)}`)
    .digest('hex');
}

const stillRunning = () => new InProgressError('A request with this Idempotency-Key is still being processed; try again in a second');

type Claimed = { token: string } | { row: IdempotencyKeyRow } | { again: true };

export class IdempotencyService {
  constructor(private readonly deps: Deps<'writer' | 'clock'>) {}

  /**
   * Runs `work` once per key: without a key it simply runs. With one, a repeat of a finished request
   * gets its stored response; of one still running, 409 with Retry-After; with another body, 422.
   */
  async run<T>(
    scope: IdempotencyScope | null,
    respond: (result: T) => JsonResponse,
    work: (seal?: Sealer<T>) => Promise<T>,
  ): Promise<Outcome> {
    if (scope === null) return { ...respond(await work()), replayed: false };
    const claimed = await this.claim(scope);
    if ('row' in claimed) return replayOf(claimed.row, scope);
    const { token } = claimed;
    try {
      const result = await work(async (w, r) => {
        const a = respond(r);
        // Taken over meanwhile (this process was presumed dead): the new holder responds; this write rolls back.
        if (!(await w.repos.idempotencyKeys.finish(scope, token, a.status, JSON.stringify(a.body)))) throw stillRunning();
      });
      return { ...respond(result), replayed: false };
    } catch (err) {
      // Nothing committed: the key is free for a retry. Harmless if the response was stored (the claim is done then).
      await this.deps.writer.write((w) => w.repos.idempotencyKeys.release(scope, token)).catch(() => undefined);
      throw err;
    }
  }

  /** The key claimed for this request (its token), or the row of an earlier request that holds it. */
  private async claim(scope: IdempotencyScope): Promise<{ token: string } | { row: IdempotencyKeyRow }> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const claim = { requestHash: scope.requestHash, token: randomBytes(16).toString('hex'), now: this.deps.clock() };
      const got = await this.deps.writer.write(async (w): Promise<Claimed> => {
        const repo = w.repos.idempotencyKeys;
        if (await repo.claim(scope, claim)) return { token: claim.token };
        const row = await repo.find(scope);
        // Released between the two statements: claim it again.
        if (!row) return { again: true };
        const expired = row.created_at + KEY_TTL_MS <= claim.now;
        const stale = row.state === 'running' && rowClaim.lapsed(row.claimed_at + STALE_CLAIM_MS, claim.now);
        if (expired || (stale && row.request_hash === scope.requestHash)) {
          return (await repo.takeOver(scope, row, claim, expired)) ? { token: claim.token } : { again: true };
        }
        return { row };
      });
      if (!('again' in got)) return got;
    }
    throw stillRunning();
  }
}

/** A repeat's response: the stored one; 422 for another request under the key; 409 while the first is still running. */
function replayOf(row: IdempotencyKeyRow, scope: IdempotencyScope): Outcome {
  if (row.request_hash !== scope.requestHash) throw keyReused();
  if (row.state === 'running') throw stillRunning();
  return { replayed: true, status: row.status!, json: row.response_body! };
}

/** The 422 for a key used with another request. */
function keyReused(): ValidationError {
  return new ValidationError({
    // Keyed as the header's format errors are (by its name as received, lower case).
    'idempotency-key': ['This Idempotency-Key was used with a different request; send a new key with a new request.'],
  });
}
