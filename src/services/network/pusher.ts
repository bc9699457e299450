// Pushes bookings to the network's ATC bookings service after their changes commit. One pusher
// per server process; several processes share the work through leased claims of the
// network_pushes rows, so each push is made by one of them, and one booking's pushes in order.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { NetworkConfig } from '../../config.js';
import type { Db } from '../../db/connection.js';
import type { Freshness } from '../../db/freshness.js';
import { writeTransaction } from '../../db/transaction.js';
import {
  classifyAnswer,
  decidePush,
  describeAnswer,
  type Division,
  findPosted,
  type NetworkBookingBody,
  type NetworkListedBooking,
  type Outcome,
  type PushedBooking,
  retryDelay,
} from '../../domain/network/push.js';
import type { Clock } from '../../domain/time.js';
import { bookingsRepository } from '../../repositories/bookings.js';
import { type ClaimedPush, networkPushesRepository, type PushResult } from '../../repositories/networkPushes.js';
import { NetworkClient, type NetworkAnswer } from './client.js';

export type PushMethod = 'POST' | 'PUT' | 'DELETE';

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
  private log: PushLogger = silent;
  private running = false;
  private filling = false;
  private wakeAgain = false;
  private timer: NodeJS.Timeout | undefined;
  private readonly outcomeListeners: Array<(outcome: PushOutcome) => void> = [];

  constructor(private readonly o: NetworkPusherOptions) {
    this.client = new NetworkClient(o.config);
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

  /** Something may be due (a change committed, a slot came free). Cheap to call often. */
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

  private async claim(limit: number): Promise<ClaimedPush[]> {
    const now = this.o.clock();
    const { db } = this.o;
    // A read first: an idle pusher never takes the write lock.
    if (!(await networkPushesRepository(db.kysely, db.dialect).anyDue(now))) return [];
    return writeTransaction(db, (trx) => networkPushesRepository(trx, db.dialect).claimDue(this.owner, now, now + this.leaseMs, limit));
  }

  private launch(push: ClaimedPush): void {
    const run = this.push(push)
      .catch(async (err: unknown) => {
        if (!(err instanceof Stopped))
          this.log.error({ err, booking: push.booking_id }, 'network push failed; it is tried again when its claim lapses');
        // Stopping (or a failure of our own): let go, so another process or the restart takes it at once.
        await this.repo()
          .release([push.booking_id], this.owner)
          .catch(() => {});
      })
      .finally(() => {
        this.inFlight.delete(push.booking_id);
        this.wake();
      });
    this.inFlight.set(push.booking_id, run);
  }

  private repo() {
    return networkPushesRepository(this.o.db.kysely, this.o.db.dialect);
  }

  private async send(method: 'GET' | PushMethod, path: string, body?: unknown): Promise<NetworkAnswer> {
    const answer = await this.client.request(method, path, body, this.abort.signal);
    if (!this.running && answer.status === null) throw new Stopped();
    return answer;
  }

  private async push(claim: ClaimedPush): Promise<void> {
    const id = claim.booking_id;
    const booking: PushedBooking | undefined = await bookingsRepository(this.o.db.kysely).findById(id);
    if (!booking) return this.finish(claim, null, { kind: 'done' }, null, null);
    let posted: NetworkBookingBody | null = claim.posted === null ? null : (JSON.parse(claim.posted) as NetworkBookingBody);
    let action = decidePush(booking, posted, this.o.division);

    if (action.kind === 'lookup') {
      const found = await this.lookUp(action.posted);
      if (typeof found === 'object' && found !== null) {
        const why = found.status === null ? (found.error ?? 'no answer') : describeAnswer(found.status, found.body);
        return this.finish(claim, 'POST', classifyAnswer('POST', found.status), found.status, `looking for an earlier create: ${why}`);
      }
      await writeTransaction(this.o.db, async (trx) => {
        const repo = networkPushesRepository(trx, this.o.db.dialect);
        if (found !== null) await repo.setNetworkId(id, found);
        await repo.notePosted(id, this.owner, null);
      });
      if (found !== null) this.o.freshness.bump();
      posted = null;
      action = decidePush({ ...booking, network_booking: found }, posted, this.o.division);
    }

    switch (action.kind) {
      case 'lookup': // decided without `posted`: cannot happen again
      case 'nothing':
        return this.finish(claim, null, { kind: 'done' }, null, null);
      case 'create': {
        // Noted before sending: if the answer is lost, the next attempt looks before posting again.
        if (!(await this.repo().notePosted(id, this.owner, JSON.stringify(action.body)))) return;
        const answer = await this.send('POST', 'booking', action.body);
        return this.finishCreate(claim, answer);
      }
      case 'update': {
        const answer = await this.send('PUT', `booking/${encodeURIComponent(action.id)}`, action.body);
        return this.finishAnswer(claim, 'PUT', answer);
      }
      case 'delete': {
        const answer = await this.send('DELETE', `booking/${encodeURIComponent(action.id)}`);
        return this.finishAnswer(claim, 'DELETE', answer);
      }
    }
  }

  /**
   * The network's id of an earlier POST, from its list of this key's bookings on that day (the
   * filters its list route takes); null when it is not there; the answer when the list could not be read.
   */
  private async lookUp(posted: NetworkBookingBody): Promise<string | null | NetworkAnswer> {
    const query = new URLSearchParams({ key_only: '1', callsign: posted.callsign, date: posted.start.slice(0, 10) });
    const answer = await this.send('GET', `booking?${query.toString()}`);
    if (answer.status === 200) {
      try {
        const list = JSON.parse(answer.body) as unknown;
        if (Array.isArray(list)) return findPosted(list as NetworkListedBooking[], posted);
      } catch {
        // fall through: an answer we cannot read is no evidence either way
      }
      return { status: 502, body: 'the list of bookings was not a JSON array' };
    }
    // The list refused the question itself (a 4xx other than 401): it cannot tell, and never will; post.
    return classifyAnswer('POST', answer.status).kind === 'refused' ? null : answer;
  }

  private async finishCreate(claim: ClaimedPush, answer: NetworkAnswer): Promise<void> {
    const outcome = classifyAnswer('POST', answer.status);
    if (outcome.kind !== 'done') {
      // An answer other than success means the network stored nothing, unless it was no answer or a 5xx.
      if (outcome.kind === 'refused' || (outcome.kind === 'retry' && outcome.operator))
        await this.repo().notePosted(claim.booking_id, this.owner, null);
      return this.finishAnswer(claim, 'POST', answer);
    }
    const networkId = idOf(answer.body);
    if (networkId === null) {
      // Stored, probably, but without its id we cannot update it: look it up on the next attempt.
      return this.finish(
        claim,
        'POST',
        { kind: 'retry', operator: false },
        answer.status,
        describeAnswer(answer.status!, 'the answer carried no booking id'),
      );
    }
    const now = this.o.clock();
    await writeTransaction(this.o.db, async (trx) => {
      const repo = networkPushesRepository(trx, this.o.db.dialect);
      await repo.setNetworkId(claim.booking_id, networkId);
      await repo.notePosted(claim.booking_id, this.owner, null);
      await repo.finish(claim.booking_id, this.owner, claim.version, this.result({ kind: 'done' }, claim, answer.status, null, now), now);
    });
    this.o.freshness.bump();
    this.report(claim, 'POST', { kind: 'done' }, answer.status);
  }

  private async finishAnswer(claim: ClaimedPush, method: PushMethod, answer: NetworkAnswer): Promise<void> {
    const outcome = classifyAnswer(method, answer.status);
    const error =
      answer.status === null ? (answer.error ?? 'no answer') : outcome.kind === 'done' ? null : describeAnswer(answer.status, answer.body);
    if (outcome.kind === 'lost') {
      // The network no longer has the booking (removed there): send it as new.
      const now = this.o.clock();
      await writeTransaction(this.o.db, async (trx) => {
        const repo = networkPushesRepository(trx, this.o.db.dialect);
        await repo.setNetworkId(claim.booking_id, null);
        await repo.finish(claim.booking_id, this.owner, claim.version, this.result(outcome, claim, answer.status, error, now), now);
      });
      this.o.freshness.bump();
      this.report(claim, method, outcome, answer.status);
      return;
    }
    return this.finish(claim, method, outcome, answer.status, error);
  }

  private async finish(
    claim: ClaimedPush,
    method: PushMethod | null,
    outcome: Outcome,
    status: number | null,
    error: string | null,
  ): Promise<void> {
    const now = this.o.clock();
    await this.repo().finish(claim.booking_id, this.owner, claim.version, this.result(outcome, claim, status, error, now), now);
    this.report(claim, method, outcome, status, error);
  }

  private result(outcome: Outcome, claim: ClaimedPush, status: number | null, error: string | null, now: number): PushResult {
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
          next_attempt_at: now + retryDelay(claim.attempts, this.o.config.retryBaseMs),
          last_status: status,
          last_error: error,
          resetAttempts: false,
        };
    }
  }

  private report(
    claim: ClaimedPush,
    method: PushMethod | null,
    outcome: Outcome,
    status: number | null,
    error: string | null = null,
  ): void {
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

/** The booking id in the network's 201 answer. */
function idOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as unknown;
    const id = parsed !== null && typeof parsed === 'object' ? (parsed as { id?: unknown }).id : undefined;
    return typeof id === 'number' || (typeof id === 'string' && id !== '') ? String(id) : null;
  } catch {
    return null;
  }
}
