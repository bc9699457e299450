// Receivers of webhook deliveries and readers of the event stream, for tests of docs/events.md.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildDivision, buildUser } from './factories.js';
import { createKey, importData } from './seed.js';

export { addWebhook } from './seed.js';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Date.now() when it arrived. */
  at: number;
}

/** What a receiver does with a request: respond with a status, or take over the response. */
export type Behaviour = (req: http.IncomingMessage, res: http.ServerResponse, got: Received) => number | 'handled';

export interface Receiver {
  url: string;
  received: Received[];
  /** Sockets currently open to it. */
  openSockets(): number;
  setBehaviour(b: Behaviour): void;
  /** Resolves once `count` requests have arrived (or rejects after timeoutMs). */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(behaviour: Behaviour = () => 200): Promise<Receiver> {
  const received: Received[] = [];
  let current = behaviour;
  const sockets = new Set<import('node:net').Socket>();
  const waiters: Array<() => void> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(got);
      for (const w of waiters.splice(0)) w();
      const status = current(req, res, got);
      if (status !== 'handled') res.writeHead(status).end();
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    openSockets: () => sockets.size,
    setBehaviour: (b) => {
      current = b;
    },
    waitFor: (count, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const deadline = setTimeout(
          () => reject(new Error(`receiver got ${received.length} of ${count} requests in ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = () => {
          if (received.length >= count) {
            clearTimeout(deadline);
            resolve(received.slice());
          } else waiters.push(check);
        };
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const DAY = 86_400_000;
export const USERS = Array.from({ length: 5 }, (_, i) => 1_200_000 + i);
export const POSITIONS = Array.from({ length: 10 }, (_, i) => `EKEV${i}_TWR`);

/** A small division imported into env's database, an edit key and a read-only key for it. */
export async function prepareDivision(env: Record<string, string>): Promise<{ token: string; readToken: string }> {
  const division = buildDivision({
    users: USERS.map((id) => buildUser({ id, first_name: 'Event', last_name: `Tester ${id}` })),
    positions: POSITIONS.map((callsign, i) => ({
      callsign,
      name: `Event Tower ${i}`,
      frequency: `118.${String(100 + i * 5)}`,
      area: 'Denmark',
      rating: 'S1',
    })),
  });
  await importData(env, division);
  return { token: await createKey(env, 'events edit'), readToken: await createKey(env, 'events read', 'read-only') };
}

/** The create body of booking number i: its own position and two hours, never overlapping another i. */
export function bookingBody(i: number) {
  const day = new Date(Date.now() + (3 + Math.floor(i / (POSITIONS.length * 10))) * DAY);
  const hour = 2 * (Math.floor(i / POSITIONS.length) % 10);
  const pad = (n: number) => String(n).padStart(2, '0');
  return {
    cid: USERS[i % USERS.length],
    date: `${pad(day.getUTCDate())}/${pad(day.getUTCMonth() + 1)}/${day.getUTCFullYear()}`,
    start_at: `${pad(hour)}:00`,
    end_at: `${pad(hour + 1)}:30`,
    position: POSITIONS[i % POSITIONS.length],
  };
}

export async function createBooking(
  baseUrl: string,
  token: string,
  i: number,
): Promise<{ status: number; body: { booking: { id: number } } }> {
  const res = await fetch(`${baseUrl}/api/bookings/create`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(bookingBody(i)),
  });
  return { status: res.status, body: (await res.json()) as { booking: { id: number } } };
}

export interface StreamMessage {
  id?: string;
  event?: string;
  data?: string;
  comment?: string;
}

/** A reader of GET /api/events that parses what arrives. */
export interface StreamReader {
  status: number;
  messages: StreamMessage[];
  /** Resolves once `predicate` holds for the messages so far. */
  until(predicate: (m: StreamMessage[]) => boolean, timeoutMs?: number): Promise<StreamMessage[]>;
  /** Resolves when the server ends the stream. */
  ended: Promise<void>;
  response: http.IncomingMessage;
  close(): void;
}

export function openStream(baseUrl: string, token: string, lastEventId?: string, query = ''): Promise<StreamReader> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      `${baseUrl}/api/events${query}`,
      { headers: { authorization: `Bearer ${token}`, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) } },
      (res) => {
        const messages: StreamMessage[] = [];
        const listeners = new Set<() => void>();
        let buffer = '';
        let checkPending = false;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const m: StreamMessage = {};
            for (const line of block.split('\n')) {
              if (line.startsWith(':')) m.comment = line.slice(1).trim();
              else {
                const i = line.indexOf(':');
                const field = line.slice(0, i) as 'id' | 'event' | 'data';
                m[field] = line.slice(i + 1).replace(/^ /, '');
              }
            }
            messages.push(m);
          }
          // Checked once per turn of the event loop, however many small chunks it brought: a
          // predicate over all messages for every chunk is quadratic on a long catch-up.
          if (!checkPending) {
            checkPending = true;
            setImmediate(() => {
              checkPending = false;
              for (const l of listeners) l();
            });
          }
        });
        const ended = new Promise<void>((r) => {
          res.on('end', () => r());
          res.on('close', () => r());
          res.on('error', () => r());
        });
        resolve({
          status: res.statusCode ?? 0,
          messages,
          response: res,
          ended,
          until: (predicate, timeoutMs = 10_000) =>
            new Promise((ok, fail) => {
              const timer = setTimeout(() => {
                listeners.delete(check);
                fail(new Error(`stream condition not met in ${timeoutMs} ms; got ${JSON.stringify(messages).slice(0, 500)}`));
              }, timeoutMs);
              const check = () => {
                if (predicate(messages)) {
                  clearTimeout(timer);
                  listeners.delete(check);
                  ok(messages.slice());
                }
              };
              listeners.add(check);
              check();
            }),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', reject);
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
