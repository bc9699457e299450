// Pushes bookings to the network's ATC bookings service after their changes commit (contract §11).
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { NetworkConfig } from '../../config.js';
import type { Division } from './domain.js';
import type { ClaimedPush } from './pushes.repository.js';
import { type HttpClient, withoutSecrets } from '../../core/http-client.js';
import type { WorkerContext, WorkerLogger } from '../../core/workers/worker.js';
import { type AttemptContext, type Attempted, attemptPush, type NetworkResponse, type PushMethod } from './push-attempt.js';
import type { Deps } from '../../app/deps.js';

/** Longest response body kept; the rest is dropped (the network's responses are a few hundred bytes). */
const MAX_BODY = 64 * 1024;

/** One finished push attempt, for metrics (counted by outcome). */
export interface PushOutcome {
  bookingId: number;
  /** null when nothing had to be sent (a booking deleted before it was ever pushed). */
  method: PushMethod | null;
  outcome: 'done' | 'refused' | 'retry' | 'rejected_key' | 'lost';
  status: number | null;
}

export type PushLogger = WorkerLogger;

const silent: PushLogger = { info() {}, warn() {}, error() {} };

export type NetworkPushesOptions = Deps<'writer' | 'repos' | 'http' | 'clock'> & {
  /** The network's bookings service (NETWORK_*). */
  network: NetworkConfig;
  division: Division;
  log?: PushLogger;
};

class Stopped extends Error {}

/** Pushes bookings to the network after their changes commit: each run queues pending changes and claims one due push under a lease. */
export class NetworkPushesService {
  /** Who holds a claim: this process. */
  private readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /** A claim outlives the longest request, so it cannot lapse while its push is still under way. */
  private readonly claimMs: number;
  private readonly outcomeListeners: Array<(outcome: PushOutcome) => void> = [];
  private log: PushLogger;

  constructor(private readonly o: NetworkPushesOptions) {
    this.claimMs = o.network.timeoutMs + Math.min(o.network.timeoutMs, 5_000);
    this.log = o.log ?? silent;
  }

  /** Calls listener after every push attempt (e.g. to count pushes by outcome in metrics). */
  onOutcome(listener: (outcome: PushOutcome) => void): void {
    this.outcomeListeners.push(listener);
  }

  /** One worker run (pushes.worker.ts): true when it did work and may find more. */
  async pushNext(ctx: WorkerContext): Promise<boolean> {
    this.log = ctx.log;
    const claimed = await this.claim(ctx.now());
    if (claimed === null) return false;
    if (claimed.push) {
      ctx.took();
      await this.push(claimed.push, ctx.signal);
    }
    return true;
  }

  /**
   * Turns changes committed since the last call into pushes and claims a due one, in one write;
   * reads first, so an idle worker never takes the write lock. Null: nothing to do.
   */
  private async claim(now: number): Promise<{ push: ClaimedPush | null } | null> {
    const { queue, due } = await this.o.repos.networkPushes.pendingWork(now);
    if (!queue && !due) return null;
    return this.o.writer.write(async (w) => {
      const repo = w.repos.networkPushes;
      if (queue) await repo.queueChanges(now);
      const [push] = await repo.claimDue(this.owner, now, now + this.claimMs, 1);
      return { push: push ?? null };
    });
  }

  private async push(claim: ClaimedPush, signal: AbortSignal): Promise<void> {
    const { writer, network: config, division, clock } = this.o;
    const attempt: AttemptContext = {
      writer,
      repos: this.o.repos,
      config,
      division,
      clock,
      owner: this.owner,
      send: async (method, path, body) => {
        const response = await bookingsRequest(this.o.http, config, method, path, body, signal);
        if (signal.aborted && response.status === null) throw new Stopped();
        return response;
      },
    };
    try {
      const attempted = await attemptPush(attempt, claim);
      if (attempted) this.report(claim, attempted);
    } catch (err) {
      if (!(err instanceof Stopped))
        this.log.error({ err, booking: claim.booking_id }, 'network push failed; it is tried again when its claim lapses');
      // Stopping (or a failure of our own): let go, so another process or the restart takes it at once.
      await writer.write((w) => w.repos.networkPushes.release([claim.booking_id], this.owner)).catch(() => {});
    }
  }

  /** Logs what needs an operator's eye and tells the outcome listeners. */
  private report(claim: ClaimedPush, { method, outcome, status, error }: Attempted): void {
    const booking = claim.booking_id;
    const kind = outcome.kind === 'retry' && outcome.operator && status === 401 ? 'rejected_key' : outcome.kind;
    if (outcome.kind === 'refused') {
      this.log.warn(
        { booking, method, status, reason: error },
        `the network refused booking ${booking}; not retried until \`npx sector network:retry ${booking}\``,
      );
    } else if (outcome.kind === 'retry' && outcome.operator) {
      const why = status === 401 ? 'rejected NETWORK_BOOKINGS_KEY' : 'redirected the request (check NETWORK_BOOKINGS_URL)';
      this.log.error({ booking, method, status, reason: error }, `the network ${why}; the push is retried with backoff`);
    } else if (outcome.kind === 'retry') {
      this.log.info({ booking, method, status, reason: error, attempts: claim.attempts }, 'network push failed; retrying with backoff');
    }
    for (const listener of this.outcomeListeners) {
      try {
        listener({ bookingId: booking, method, outcome: kind, status });
      } catch {
        // a metrics callback must not break pushing
      }
    }
  }
}

/** One request to the network's bookings service (path relative to its API base); the body is cut at 64 KiB. */
export async function bookingsRequest(
  http: HttpClient,
  config: Pick<NetworkConfig, 'url' | 'key' | 'timeoutMs'>,
  method: 'GET' | PushMethod,
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<NetworkResponse> {
  const url = new URL(path, `${config.url}/`);
  const result = await http.request(url, {
    method,
    headers: {
      accept: 'application/json',
      authorization: `Bearer ${config.key}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? null : JSON.stringify(body),
    timeoutMs: config.timeoutMs,
    maxBytes: MAX_BODY,
    overflow: 'truncate',
    signal,
    // Where a failure happened, as the operator reads it in network:status.
    label: `${method} ${withoutSecrets(url)}`,
  });
  if (!result.ok) return { status: null, body: '', error: result.error };
  return { status: result.status, body: result.body.toString('utf8'), retryAfter: result.headers.get('retry-after') ?? undefined };
}
