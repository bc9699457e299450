// Pushes bookings to the network's ATC bookings service after their changes commit. One pusher
// per server process; it takes the changes owed to the network from the outbox into network_pushes
// rows (one per booking), and several processes share the work through leased claims of those
// rows, so each push is made by one of them, and one booking's pushes in order.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { NetworkConfig } from '../../config.js';
import type { Db } from '../../db/connection.js';
import { transaction } from '../../db/transaction.js';
import type { Division } from '../../domain/network/push.js';
import type { Clock } from '../../domain/time.js';
import { type ClaimedPush, networkPushesRepository } from '../../repositories/network-pushes.js';
import { OutboxConsumer } from '../jobs/outbox-consumer.js';
import type { Timers } from '../jobs/timers.js';
import { type HttpClient, withoutSecrets } from '../http-client.js';
import { type AttemptContext, type Attempted, attemptPush, type NetworkResponse, type PushMethod } from './push-attempt.js';

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

/** The pino methods the pusher logs with. */
export interface PushLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

const silent: PushLogger = { info() {}, warn() {}, error() {} };

export interface NetworkPusherOptions {
  db: Db;
  config: NetworkConfig;
  /** The process's outbound client. */
  http: HttpClient;
  division: Division;
  clock: Clock;
  /** Pushes under way at once, per process. */
  concurrency?: number;
  /** How often due pushes (retries) are looked for when nothing wakes the pusher. */
  pollMs?: number;
  timers?: Timers;
  onOutcome?: (outcome: PushOutcome) => void;
}

class Stopped extends Error {}

export class NetworkPusher {
  private readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  /** A claim outlives the longest request, so it cannot lapse while its push is still under way. */
  private readonly leaseMs: number;
  private readonly consumer: OutboxConsumer<ClaimedPush>;
  private log: PushLogger = silent;
  private running = false;
  private readonly outcomeListeners: Array<(outcome: PushOutcome) => void> = [];
  /** What one push needs of the pusher: the claims' owner, and requests cut short when it stops. */
  private readonly attempt: AttemptContext;
  private signal: AbortSignal | undefined;

  constructor(private readonly o: NetworkPusherOptions) {
    const { db, config, division, clock } = o;
    this.attempt = {
      db,
      config,
      division,
      clock,
      owner: this.owner,
      send: (method, path, body) => this.send(method, path, body),
    };
    this.leaseMs = o.config.timeoutMs + Math.min(o.config.timeoutMs, 5_000);
    if (o.onOutcome) this.outcomeListeners.push(o.onOutcome);
    this.consumer = new OutboxConsumer(
      {
        claim: (limit) => this.claim(limit),
        handle: async (push, signal) => {
          await this.push(push, signal);
          return [];
        },
        describe: (push) => ({ booking: push.booking_id }),
      },
      {
        name: 'network pushes',
        concurrency: o.concurrency ?? 4,
        pollMs: o.pollMs ?? 500,
        log: { warn: (obj, msg) => this.log.warn(obj, msg) },
        ...(o.timers ? { timers: o.timers } : {}),
      },
    );
  }

  /** Calls listener after every push attempt (e.g. to count pushes by outcome in metrics). */
  onOutcome(listener: (outcome: PushOutcome) => void): void {
    this.outcomeListeners.push(listener);
  }

  start(log: PushLogger = silent): void {
    if (this.running) return;
    this.log = log;
    this.running = true;
    this.consumer.start();
  }

  /** A local commit wrote changes: they are taken and pushed at once. */
  committed(): void {
    this.consumer.wake();
  }

  /** Something may be due. Cheap to call often. */
  wake(): void {
    this.consumer.wake();
  }

  /** Stops claiming, cuts requests under way short and lets go of their claims (none is lost). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    await this.consumer.stop(0);
  }

  settled(): Promise<void> {
    return this.consumer.settled();
  }

  /**
   * Turns changes committed since the last call into pushes and claims due ones, in one write;
   * reads first, so an idle pusher never takes the write lock.
   */
  private async claim(limit: number): Promise<{ claimed: ClaimedPush[]; more: boolean }> {
    const now = this.o.clock();
    const { db } = this.o;
    const reads = networkPushesRepository(db.kysely, db.dialect);
    const queue = await reads.queueDue();
    const claim = limit > 0 && (queue || (await reads.anyDue(now)));
    if (!queue && !claim) return { claimed: [], more: false };
    return transaction(db, async (trx) => {
      const repo = networkPushesRepository(trx, db.dialect);
      const queued = queue ? await repo.queueChanges(now) : { more: false };
      return { claimed: claim ? await repo.claimDue(this.owner, now, now + this.leaseMs, limit) : [], more: queued.more };
    });
  }

  private async push(claim: ClaimedPush, signal: AbortSignal): Promise<void> {
    this.signal = signal;
    try {
      const attempted = await attemptPush(this.attempt, claim);
      if (attempted) this.report(claim, attempted);
    } catch (err) {
      if (!(err instanceof Stopped))
        this.log.error({ err, booking: claim.booking_id }, 'network push failed; it is tried again when its claim lapses');
      // Stopping (or a failure of our own): let go, so another process or the restart takes it at once.
      await transaction(this.o.db, (trx) => networkPushesRepository(trx, this.o.db.dialect).release([claim.booking_id], this.owner)).catch(
        () => {},
      );
    }
  }

  private async send(method: 'GET' | PushMethod, path: string, body?: unknown): Promise<NetworkResponse> {
    const response = await bookingsRequest(this.o.http, this.o.config, method, path, body, this.signal);
    if (!this.running && response.status === null) throw new Stopped();
    return response;
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

/**
 * One request to the network's bookings service: the key as a bearer token, the body cut at 64 KiB
 * (the status is what matters), and a failure naming the request without its query.
 * path is relative to the API base, e.g. `booking/12` or `booking?callsign=X`.
 */
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
