// The live event stream: one tail per process reads the outbox by seq and hands new events to every
// connected client; a client resuming from an event id first catches up from the table. The tail and
// the heartbeat are workers (stream.worker.ts, stream-heartbeat.worker.ts), woken by commits that wrote events.
import type { StreamEvent } from './events.repository.js';
import type { Deps } from '../../app/deps.js';

/** A connection of GET /api/events, as the stream sees it. */
export interface StreamSink {
  /** Writes text; returns false once the client is too far behind (it has then been dropped). */
  write(text: string): boolean;
  /** True when the client's buffer is past half its bound: a catching-up client waits for it to drain. */
  backedUp(): boolean;
  drained(): Promise<void>;
  end(): void;
  closed(): boolean;
}

interface Client {
  sink: StreamSink;
  /** The API key the stream was opened with. */
  keyId: string;
  /** seq of the last event written to it. */
  cursor: number;
  /** False while it catches up from the table; the tailer writes to live clients only. */
  live: boolean;
  /** The types it receives (`?types=`, contract §17). */
  accepts: (type: string) => boolean;
}

const BATCH = 500;

export interface StreamLimits {
  /** Open streams per API key. */
  perKey: number;
  /** Open streams of this process in all. */
  total: number;
}

/** Of the given key ids, those still valid (not revoked, not expired): asked once per heartbeat. */
export type ValidKeys = (ids: string[]) => Promise<Set<string>>;

/** Why a stream was not admitted: its key has its share open, or the process has its total. */
export type Refusal = 'key' | 'total';

export function formatEvent(e: Pick<StreamEvent, 'id' | 'type' | 'body'>): string {
  return `id: ${e.id}\nevent: ${e.type}\ndata: ${e.body}\n\n`;
}

export class EventStreamService {
  private readonly clients = new Set<Client>();
  /** Every admitted stream with its key, from admission to detach (catching up or live). */
  private readonly admitted = new Map<StreamSink, string>();
  private readonly perKey = new Map<string, number>();
  private checking = false;
  /** The newest event the tail has read; undefined until a first client comes. */
  private lastSeq: Promise<number> | number | undefined;

  constructor(private readonly deps: Deps<'repos'> & { limits: StreamLimits; validKeys: ValidKeys }) {}

  get size(): number {
    return this.clients.size;
  }

  /**
   * Takes a place for a new stream of `keyId`, or says which cap is reached. Every admitted sink
   * must be detached when its connection closes, which frees the place.
   */
  admit(sink: StreamSink, keyId: string): Refusal | null {
    if (this.admitted.size >= this.deps.limits.total) return 'total';
    const open = this.perKey.get(keyId) ?? 0;
    if (open >= this.deps.limits.perKey) return 'key';
    this.admitted.set(sink, keyId);
    this.perKey.set(keyId, open + 1);
    return null;
  }

  /** The tail's position: read once, when the first client comes (before, the tail has nothing to do). */
  private position(): Promise<number> | number {
    this.lastSeq ??= this.deps.repos.events.lastSeq();
    return this.lastSeq;
  }

  /**
   * Adds a client: from a known event id it first gets later events from the table; an unknown one
   * gets `reset`, then live events. It is written only the events it `accepts` (its cursor passes the others).
   */
  async attach(sink: StreamSink, resumeFrom: string | undefined, reset: string, accepts: (type: string) => boolean): Promise<void> {
    const keyId = this.admitted.get(sink);
    if (keyId === undefined) throw new Error('attach() of a stream that was not admitted');
    this.lastSeq = await this.position();
    const repo = this.deps.repos.events;
    const seq = resumeFrom === undefined ? null : await repo.seqOf(resumeFrom);
    const client: Client = { sink, keyId, cursor: seq ?? (await repo.lastSeq()), live: false, accepts };
    if (resumeFrom !== undefined && seq === null && !sink.write(reset)) return;
    this.clients.add(client);
    try {
      // Caught up once the table has nothing newer and the tail is no further on; from then on the
      // tail (which only ever moves forward) writes what follows, so nothing falls between. The tail
      // may be further back: what it then writes again, the client has (its cursor skips it).
      for (;;) {
        const rows = await repo.after(client.cursor, BATCH);
        // One event at a time, waiting for the client to take them: catching up never trips its bound.
        for (const row of rows) {
          if (sink.closed()) break;
          this.send(client, [row]);
          if (sink.backedUp()) await sink.drained();
        }
        if (sink.closed() || (rows.length < BATCH && client.cursor >= (await this.position()))) break;
      }
    } catch (err) {
      this.detach(sink);
      throw err;
    }
    client.live = true;
  }

  detach(sink: StreamSink): void {
    for (const c of this.clients) if (c.sink === sink) this.clients.delete(c);
    const keyId = this.admitted.get(sink);
    if (keyId === undefined) return;
    this.admitted.delete(sink);
    const open = (this.perKey.get(keyId) ?? 1) - 1;
    if (open > 0) this.perKey.set(keyId, open);
    else this.perKey.delete(keyId);
  }

  /** Ends every stream (shutdown). */
  close(): void {
    for (const c of this.clients) c.sink.end();
    this.clients.clear();
    for (const sink of this.admitted.keys()) sink.end();
    this.admitted.clear();
    this.perKey.clear();
  }

  /** Writes events committed since the last read to every client; true when a whole batch came (more may follow). */
  async tail(): Promise<boolean> {
    if (this.lastSeq === undefined) return false;
    const rows = await this.deps.repos.events.after(await this.position(), BATCH);
    if (rows.length === 0) return false;
    this.lastSeq = rows[rows.length - 1]!.seq;
    for (const client of this.clients) if (client.live) this.send(client, rows);
    return rows.length === BATCH;
  }

  private send(client: Client, rows: StreamEvent[]): void {
    for (const row of rows) {
      if (row.seq <= client.cursor) continue;
      client.cursor = row.seq;
      if (!client.accepts(row.type)) continue;
      if (!client.sink.write(formatEvent(row))) {
        this.clients.delete(client);
        return;
      }
    }
  }

  /** A comment on every live stream, so idle connections stay open; streams of keys revoked or expired since are ended first. */
  async heartbeat(): Promise<void> {
    await this.endInvalidKeys();
    for (const client of this.clients) if (client.live && !client.sink.write(': keep-alive\n\n')) this.clients.delete(client);
  }

  /**
   * Ends the streams whose key was revoked or expired since they opened (by any process: the
   * keys are in the database), asking once for all the keys of open streams.
   */
  private async endInvalidKeys(): Promise<void> {
    if (this.checking || this.admitted.size === 0) return;
    this.checking = true;
    try {
      // Only the streams open when the question was asked: one opened meanwhile may have a key not asked about.
      const asked = [...this.admitted];
      const valid = await this.deps.validKeys([...new Set(asked.map(([, keyId]) => keyId))]);
      for (const [sink, keyId] of asked) {
        if (valid.has(keyId) || !this.admitted.has(sink)) continue;
        sink.end();
        this.detach(sink);
      }
    } catch {
      // The database did not respond: the next heartbeat asks again; streams stay open till then.
    } finally {
      this.checking = false;
    }
  }
}
