// GET requests to the network's read APIs (roster, members, data feed), treated as hostile like
// every outbound call: one deadline for the whole exchange, the body read up to a bound (past it
// the answer is a failure, never a truncated document), redirects not followed (a 3xx is an answer
// like any other), and headers (the key) never logged.
import http from 'node:http';
import https from 'node:https';

export type GetAnswer = { ok: true; status: number; body: Buffer } | { ok: false; error: string };

export interface GetOptions {
  headers?: Record<string, string>;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
}

const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 4 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 4 }),
};

/** Connection failures as words, the code kept for searching. */
const FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed for now',
  EPIPE: 'connection closed while sending',
};

/** One line naming the failure, without the request (and so without the key). */
export function describeError(err: NodeJS.ErrnoException): string {
  if (err.code && FAILURES[err.code]) return `${FAILURES[err.code]} (${err.code})`;
  return err.code
    ? `${err.code}${err.message && !err.message.includes(err.code) ? ` ${err.message}` : ''}`
    : err.message || 'request failed';
}

/** A failed exchange names the host it was with: the operator sees which setting to look at. */
export function getBounded(url: URL, options: GetOptions): Promise<GetAnswer> {
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise<GetAnswer>((resolve) => {
    let settled = false;
    const done = (answer: GetAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(answer);
    };
    const req = transport.request(url, {
      method: 'GET',
      agent: agents[url.protocol === 'https:' ? 'https:' : 'http:'],
      headers: { accept: 'application/json', 'user-agent': 'Sector', ...options.headers },
    });
    const timer = setTimeout(() => {
      req.destroy();
      done({ ok: false, error: `${url.host}: no answer within ${options.timeoutMs} ms` });
    }, options.timeoutMs);
    const onAbort = () => {
      req.destroy();
      done({ ok: false, error: 'stopped' });
    };
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (err: NodeJS.ErrnoException) => done({ ok: false, error: `${url.host}: ${describeError(err)}` }));
    req.on('response', (res) => {
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > options.maxBytes) {
        res.destroy();
        done({ ok: false, error: `${url.host}: answer larger than ${options.maxBytes} bytes` });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > options.maxBytes) {
          res.destroy();
          done({ ok: false, error: `${url.host}: answer larger than ${options.maxBytes} bytes` });
          return;
        }
        chunks.push(chunk);
      });
      res.on('end', () => done({ ok: true, status: res.statusCode ?? 0, body: Buffer.concat(chunks, size) }));
      res.on('error', (err: NodeJS.ErrnoException) => done({ ok: false, error: `${url.host}: answer broken off (${describeError(err)})` }));
    });
    req.end();
  });
}

/** One line naming an answer that is not a success: `HTTP 429`, `api.vatsim.net: no answer within 15000 ms`. */
export function describeFailure(answer: GetAnswer): string {
  return answer.ok ? `HTTP ${answer.status}` : answer.error;
}

/** The same, naming the host that answered too: `data.vatsim.net: HTTP 503`. */
export function describeFailureOf(url: URL, answer: GetAnswer): string {
  return answer.ok ? `${url.host}: HTTP ${answer.status}` : answer.error;
}
