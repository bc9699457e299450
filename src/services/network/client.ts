// The network's ATC bookings service over HTTP, treated as hostile: every request has a deadline,
// answers are read up to a bound, redirects are not followed, and the key is never logged.
import http from 'node:http';
import https from 'node:https';
import type { NetworkConfig } from '../../config.js';
import { describeError } from './http-get.js';

/** Longest answer body read; the rest is dropped (the network's answers are a few hundred bytes). */
const MAX_BODY = 64 * 1024;

export interface NetworkAnswer {
  /** null when no answer came: connection refused or reset, timeout, or the pusher stopping. */
  status: number | null;
  body: string;
  /** Why there was no answer (status null). */
  error?: string;
  /** The answer's Retry-After header, as sent. */
  retryAfter?: string | undefined;
}

export class NetworkClient {
  private readonly base: URL;
  private readonly agent: http.Agent;

  constructor(private readonly config: Pick<NetworkConfig, 'url' | 'key' | 'timeoutMs'>) {
    this.base = new URL(`${config.url}/`);
    const Agent = this.base.protocol === 'https:' ? https.Agent : http.Agent;
    this.agent = new Agent({ keepAlive: true, maxSockets: 8 });
  }

  /** path is relative to the API base, e.g. `booking/12` or `booking?callsign=X`. */
  request(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown, signal?: AbortSignal): Promise<NetworkAnswer> {
    const url = new URL(path, this.base);
    const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
    const transport = url.protocol === 'https:' ? https : http;
    // Where a failure happened, as the operator reads it in network:status.
    const where = `${method} ${withoutSecrets(url)}`;
    return new Promise<NetworkAnswer>((resolve) => {
      let settled = false;
      const done = (answer: NetworkAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        resolve(answer);
      };
      const req = transport.request(url, {
        method,
        agent: this.agent,
        headers: {
          accept: 'application/json',
          authorization: `Bearer ${this.config.key}`,
          ...(payload ? { 'content-type': 'application/json', 'content-length': String(payload.length) } : {}),
        },
      });
      // The whole exchange, answer body included, must fit in the timeout.
      const timer = setTimeout(() => {
        req.destroy();
        done({ status: null, body: '', error: `${where}: no answer within ${this.config.timeoutMs} ms` });
      }, this.config.timeoutMs);
      const onAbort = () => {
        req.destroy();
        done({ status: null, body: '', error: 'stopped' });
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      req.on('error', (err: NodeJS.ErrnoException) => done({ status: null, body: '', error: `${where}: ${describeError(err)}` }));
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size >= MAX_BODY) return;
          chunks.push(chunk.subarray(0, MAX_BODY - size));
          size += chunk.length;
          if (size >= MAX_BODY) {
            // Enough: the status is what matters, and the message fits in far less.
            res.destroy();
            done({ status: res.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8'), retryAfter: res.headers['retry-after'] });
          }
        });
        res.on('end', () =>
          done({ status: res.statusCode ?? null, body: Buffer.concat(chunks).toString('utf8'), retryAfter: res.headers['retry-after'] }),
        );
        res.on('error', (err: NodeJS.ErrnoException) => done({ status: null, body: '', error: `${where}: ${describeError(err)}` }));
      });
      req.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/** The address of a request without what may be secret in it: user and password, and the query. */
export function withoutSecrets(url: URL | string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}
