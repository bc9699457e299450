// Pushes bookings to the network's ATC bookings service after their changes commit. One pusher
// per server process; it takes the changes owed to the network from the outbox into network_pushes
// rows (one per booking), and several processes share the work through leased claims of those
// rows, so each push is made by one of them, and one booking's pushes in order.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { NetworkConfig } from '../../config.js';
import type { Db } from '../../db/connection.js';
import type { Freshness } from '../../db/freshness.js';
import { backgroundWrite } from '../../db/transaction.js';
import type { Division } from '../../domain/network/push.js';
import type { Clock } from '../../domain/time.js';
import { type ClaimedPush, networkPushesRepository } from '../../repositories/network-pushes.js';
import { BackgroundPacing } from '../background-pacing.js';
import { TakeSpacing } from '../events/take-spacing.js';
import { NetworkClient, type NetworkAnswer } from './client.js';
import { type AttemptContext, type Attempted, attemptPush, type PushMethod } from './push-attempt.js';

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
  division: Division;
  clock: Clock;
  freshness: Freshness;
  /** Pushes under way at once, per process. */
  concurrency?: number;
  /** How often due pushes (retries) are looked for when nothing wakes the pusher. */
  pollMs?: number;
  onOutcome?: (outcome: PushOutcome) => void;
}

class Stopped extends Error {}

export class NetworkPusher {
  private readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly client: NetworkClient;
  private readonly concurrency: number;
  /** A claim outlives the longest request, so it cannot lapse while its push is still under way. */
  private readonly leaseMs: number;
  private readonly inFlight = new Map<number, Promise<void>>();
  private readonly abort = new AbortController();
  private readonly spacing = new TakeSpacing(() => this.wake());
  private readonly pacing = new BackgroundPacing(() => this.wake());
  private log: PushLogger = silent;
  private running = false;
  private filling = false;
  private wakeAgain = false;
  /** The last claim took as many pushes as it asked for: more are probably due. */
  private backlog = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly outcomeListeners: Array<(outcome: PushOutcome) => void> = [];
  /** What one push needs of the pusher: the claims' owner, and requests cut short when it stops. */
  private readonly attempt: AttemptContext;

  constructor(private readonly o: NetworkPusherOptions) {
    this.client = new NetworkClient(o.config);
    const { db, config, division, clock, freshness } = o;
    this.attempt = {
      db,
      config,
      division,
      clock,
      freshness,
      owner: this.owner,
      send: (method, path, body) => this.send(method, path, body),
    };
    this.concurrency = o.concurrency ?? 4;
    this.leaseMs = o.config.timeoutMs + Math.min(o.config.timeoutMs, 5_000);
    if (o.onOutcome) this.outcomeListeners.push(o.onOutcome);
  }

  /** Calls listener after every push attempt (e.g. to count pushes by outcome in metrics). */
  onOutcome(listener: (outcome: PushOutcome) => void): void {
    this.outcomeListeners.push(listener);
  }

  start(log: PushLogger = silent): void {
    if (this.running) return;
    this.log = log;
    this.running = true;
    this.timer = setInterval(() => this.wake(), this.o.pollMs ?? 500);
    this.timer.unref();
    this.wake();
  }

  /** A local commit wrote changes: they are taken at once, or with the next spaced take. */
  committed(): void {
    if (this.spacing.mayTake()) this.wake();
  }

  /** Something may be due (a slot came free, the poll, changes to take). Cheap to call often. */
  wake(): void {
    if (!this.running) return;
    if (this.filling) {
      this.wakeAgain = true;
      return;
    }
    void this.fill();
  }

  /** Stops claiming, cuts requests under way short and lets go of their claims (none is lost). */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    clearInterval(this.timer);
    this.spacing.stop();
    this.pacing.stop();
    this.abort.abort();
    await Promise.allSettled([...this.inFlight.values()]);
    this.client.close();
  }

  private async fill(): Promise<void> {
    this.filling = true;
    try {
      do {
        this.wakeAgain = false;
        while (this.running && this.inFlight.size < this.concurrency) {
          const claimed = await this.claim(this.concurrency - this.inFlight.size);
          if (claimed.length === 0) break;
          for (const push of claimed) this.launch(push);
        }
      } while (this.wokenMeanwhile());
    } catch (err) {
      this.log.error({ err }, 'could not claim network pushes; trying again shortly');
    } finally {
      this.filling = false;
    }
  }

  /** Whether wake() was called while claiming (read through a method: the flag changes across awaits). */
  private wokenMeanwhile(): boolean {
    return this.wakeAgain && this.running;
  }

  /** Claims up to `open` due pushes, as many as the pace allows; absorbs new changes on a spaced look. */
  private async claim(open: number): Promise<ClaimedPush[]> {
    const now = this.o.clock();
    const { db } = this.o;
    // Reads first: an idle pusher never takes the write lock.
    const reads = networkPushesRepository(db.kysely, db.dialect);
    const look = this.spacing.mayTake();
    if (look) this.spacing.taking();
    const absorb = look && (await reads.absorbDue());
    // After a full claim more is probably due: the claim itself finds out, without a read first.
    if (!absorb && !this.backlog && !(await reads.anyDue(now))) return [];
    // The pace is asked only once there is something to claim, so an idle look leaves it alone.
    const limit = this.pacing.allow(open);
    if (!absorb && limit === 0) return [];
    // Changes committed since the last look become pushes in the same write as the claim.
    const { claimed, more } = await backgroundWrite(db, async (trx) => {
      const repo = networkPushesRepository(trx, db.dialect);
      const absorbed = absorb ? await repo.absorb(now) : { more: false };
      return { claimed: limit > 0 ? await repo.claimDue(this.owner, now, now + this.leaseMs, limit) : [], more: absorbed.more };
    });
    if (more) this.wakeAgain = true;
    if (limit > 0) this.backlog = claimed.length === limit;
    return claimed;
  }

  private launch(push: ClaimedPush): void {
    const run = this.push(push)
      .catch(async (err: unknown) => {
        if (!(err instanceof Stopped))
          this.log.error({ err, booking: push.booking_id }, 'network push failed; it is tried again when its claim lapses');
        // Stopping (or a failure of our own): let go, so another process or the restart takes it at once.
        await backgroundWrite(this.o.db, (trx) =>
          networkPushesRepository(trx, this.o.db.dialect).release([push.booking_id], this.owner),
        ).catch(() => {});
      })
      .finally(() => {
        this.inFlight.delete(push.booking_id);
        this.wake();
      });
    this.inFlight.set(push.booking_id, run);
  }

  private async push(claim: ClaimedPush): Promise<void> {
    const attempted = await attemptPush(this.attempt, claim);
    if (attempted) this.report(claim, attempted);
  }

  private async send(method: 'GET' | PushMethod, path: string, body?: unknown): Promise<NetworkAnswer> {
    const answer = await this.client.request(method, path, body, this.abort.signal);
    if (!this.running && answer.status === null) throw new Stopped();
    return answer;
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
