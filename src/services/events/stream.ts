// The live event stream: one tailer per process reads the outbox by seq and hands new events to
// every connected client; a client resuming from an event id first catches up from the table.
import type { Db } from '../../db/connection.js';
import { eventsRepository, type StreamEvent } from '../../repositories/events.js';

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

export class EventStream {
  private readonly clients = new Set<Client>();
  /** Every admitted stream with its key, from admission to detach (catching up or live). */
  private readonly admitted = new Map<StreamSink, string>();
  private readonly perKey = new Map<string, number>();
  private checking = false;
  private lastSeq = 0;
  private started: Promise<void> | undefined;
  private pollTimer: NodeJS.Timeout | undefined;
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private polling = false;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly heartbeatMs: number,
    private readonly limits: StreamLimits,
    private readonly validKeys: ValidKeys,
    private readonly pollMs = 250,
  ) {}

  get size(): number {
    return this.clients.size;
  }

  /**
   * Takes a place for a new stream of `keyId`, or says which cap is reached. Every admitted sink
   * must be detached when its connection closes, which frees the place.
   */
  admit(sink: StreamSink, keyId: string): Refusal | null {
    if (this.admitted.size >= this.limits.total) return 'total';
    const open = this.perKey.get(keyId) ?? 0;
    if (open >= this.limits.perKey) return 'key';
    this.admitted.set(sink, keyId);
    this.perKey.set(keyId, open + 1);
    return null;
  }

  /** Starts tailing on first use. */
  private start(): Promise<void> {
    this.started ??= (async () => {
      this.lastSeq = await eventsRepository(this.db.kysely, this.db.dialect).lastSeq();
      this.pollTimer = setInterval(() => this.wake(), this.pollMs);
      this.heartbeatTimer = setInterval(() => this.heartbeat(), this.heartbeatMs);
      this.pollTimer.unref();
      this.heartbeatTimer.unref();
    })();
    return this.started;
  }

  /** A local commit wrote events: read them now rather than at the next poll. */
  wake(): void {
    if (!this.started) return;
    if (this.polling) {
      this.again = true;
      return;
    }
    this.polling = true;
    void this.poll()
      .catch(() => {
        // The next poll tries again; clients keep their cursors.
      })
      .finally(() => {
        this.polling = false;
      });
  }

  /**
   * Adds a client. With a known event id it first receives every later event from the table,
   * then live ones; `resumeFrom` undefined means live only. An unknown or expired id has `reset`
   * written first, then live events.
   */
  async attach(sink: StreamSink, resumeFrom: string | undefined, reset: string): Promise<void> {
    const keyId = this.admitted.get(sink);
    if (keyId === undefined) throw new Error('attach() of a stream that was not admitted');
    await this.start();
    const repo = eventsRepository(this.db.kysely, this.db.dialect);
    const seq = resumeFrom === undefined ? null : await repo.seqOf(resumeFrom);
    const client: Client = { sink, keyId, cursor: seq ?? (await repo.lastSeq()), live: false };
    if (resumeFrom !== undefined && seq === null && !sink.write(reset)) return;
    this.clients.add(client);
    try {
      // Caught up once nothing newer than the tailer's position is left; from then on the
      // tailer (which only ever moves forward) writes what follows, so nothing falls between.
      while (client.cursor < this.lastSeq && !sink.closed()) {
        const rows = await repo.after(client.cursor, BATCH);
        if (rows.length === 0) break;
        // One event at a time, waiting for the client to take them: catching up never trips its bound.
        for (const row of rows) {
          if (sink.closed()) break;
          this.send(client, [row]);
          if (sink.backedUp()) await sink.drained();
        }
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

  /** Ends every stream (shutdown) and stops tailing. */
  close(): void {
    clearInterval(this.pollTimer);
    clearInterval(this.heartbeatTimer);
    for (const c of this.clients) c.sink.end();
    this.clients.clear();
    for (const sink of this.admitted.keys()) sink.end();
    this.admitted.clear();
    this.perKey.clear();
  }

  private async poll(): Promise<void> {
    const repo = eventsRepository(this.db.kysely, this.db.dialect);
    do {
      this.again = false;
      const rows = await repo.after(this.lastSeq, BATCH);
      if (rows.length === 0) continue;
      this.lastSeq = rows[rows.length - 1]!.seq;
      for (const client of this.clients) if (client.live) this.send(client, rows);
      if (rows.length === BATCH) this.again = true;
    } while (this.again);
  }

  private send(client: Client, rows: StreamEvent[]): void {
    for (const row of rows) {
      if (row.seq <= client.cursor) continue;
      client.cursor = row.seq;
      if (!client.sink.write(formatEvent(row))) {
        this.clients.delete(client);
        return;
      }
    }
  }

  private heartbeat(): void {
    void this.endInvalidKeys().finally(() => {
      for (const client of this.clients) if (client.live && !client.sink.write(': keep-alive\n\n')) this.clients.delete(client);
    });
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
      const valid = await this.validKeys([...new Set(asked.map(([, keyId]) => keyId))]);
      for (const [sink, keyId] of asked) {
        if (valid.has(keyId) || !this.admitted.has(sink)) continue;
        sink.end();
        this.detach(sink);
      }
    } catch {
      // The database did not answer: the next heartbeat asks again; streams stay open till then.
    } finally {
      this.checking = false;
    }
  }
}
