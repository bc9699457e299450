// The one outbound HTTP client: every other service is hostile, so one deadline for the whole exchange,
// a body cap, no redirects, everything ended by close(), and never a header (keys) in a message.
// node:http, not fetch: Node 20's fetch keeps a spare connection after each abort and pools process-wide.
import http from 'node:http';
import https from 'node:https';

export interface HttpRequest {
  /** GET unless said. */
  method?: string;
  headers?: Record<string, string>;
  /** Text, or bytes (a multipart upload, its content-type set by the caller). */
  body?: string | Buffer | null;
  /** The whole exchange, response body included. */
  timeoutMs: number;
  maxBytes: number;
  /** Past maxBytes: fail the request (a document must be whole), or keep the first maxBytes and the status. */
  overflow?: 'fail' | 'truncate';
  /** Ends the request when it aborts (a job or a consumer stopping). */
  signal?: AbortSignal | undefined;
  /** What a failure's line starts with; the URL's host unless said. */
  label?: string;
  /** A connection of its own, closed afterwards: nothing a receiver does lingers in a pool (webhooks). */
  fresh?: boolean;
}

export type HttpResult =
  | { ok: true; status: number; headers: Headers; body: Buffer }
  /** No response: `error` is one line naming the host and what happened. */
  | { ok: false; reason: 'timeout' | 'stopped' | 'too-large' | 'failed'; error: string };

export type HttpFailure = Extract<HttpResult, { ok: false }>;

/** A request without a response, thrown by the fetch-compatible function (oauth4webapi expects a throw). */
export class HttpRequestError extends Error {
  constructor(readonly failure: HttpFailure) {
    super(failure.error);
  }
}

/** Methods a receiver may get twice with the same effect (RFC 9110): safe to send again on a stale connection. */
const IDEMPOTENT = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE']);

export class HttpClient {
  private readonly closing = new AbortController();
  private readonly agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

  request(target: URL | string, r: HttpRequest): Promise<HttpResult> {
    const url = new URL(target);
    // Credentials never travel in a URL (the settings refuse them; node:http would send them).
    url.username = '';
    url.password = '';
    const label = r.label ?? url.host;
    const secure = url.protocol === 'https:';
    const signals = r.signal ? [this.closing.signal, r.signal] : [this.closing.signal];
    return new Promise<HttpResult>((resolve) => {
      let req: http.ClientRequest | undefined;
      let settled = false;
      const done = (result: HttpResult, destroy = true) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        for (const s of signals) s.removeEventListener('abort', stop);
        // Ended early (deadline, stop, cap): the connection goes, and the rest of a body is never read.
        if (destroy) req?.destroy();
        resolve(result);
      };
      const fail = (reason: HttpFailure['reason'], what: string) => done({ ok: false, reason, error: `${label}: ${what}` });
      const stop = () => done({ ok: false, reason: 'stopped', error: 'stopped' });
      const timer = setTimeout(() => fail('timeout', `no response within ${r.timeoutMs} ms`), r.timeoutMs);
      for (const s of signals) {
        if (s.aborted) return stop();
        s.addEventListener('abort', stop, { once: true });
      }
      const method = r.method ?? 'GET';
      const send = (again: boolean): void => {
        try {
          req = (secure ? https : http).request(url, {
            method,
            agent: r.fresh ? false : secure ? this.agents.https : this.agents.http,
            headers: {
              'user-agent': 'Sector',
              ...r.headers,
              ...(r.body == null ? {} : { 'content-length': String(Buffer.byteLength(r.body)) }),
            },
          });
        } catch (err) {
          // A malformed header, say: the message names the header, never its value.
          fail('failed', describeError(err));
          return;
        }
        const sent = req;
        sent.on('error', (err) => {
          // A kept-alive connection the receiver closed as it was reused: an idempotent request is
          // sent once more on a new one, within the same deadline (Node's documented remedy).
          const stale = sent.reusedSocket && (err as NodeJS.ErrnoException).code === 'ECONNRESET' && IDEMPOTENT.has(method);
          if (stale && !again && !settled) return send(true);
          fail('failed', describeError(err));
        });
        sent.on('response', (res) => {
          const tooLarge = () => fail('too-large', `response larger than ${r.maxBytes} bytes`);
          if (r.overflow !== 'truncate' && Number(res.headers['content-length']) > r.maxBytes) return tooLarge();
          let headers: Headers;
          try {
            headers = new Headers(Object.entries(res.headers).flatMap(([k, v]) => [v ?? []].flat().map((one) => [k, one])));
          } catch {
            return fail('failed', 'headers that are not HTTP');
          }
          const result = (body: Buffer) => ({ ok: true as const, status: res.statusCode ?? 0, headers, body });
          const parts: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size + chunk.length <= r.maxBytes) {
              parts.push(chunk);
              size += chunk.length;
            } else if (r.overflow !== 'truncate') tooLarge();
            else done(result(Buffer.concat([...parts, chunk.subarray(0, r.maxBytes - size)])));
          });
          res.on('end', () => done(result(Buffer.concat(parts, size)), false));
          res.on('error', (err) => fail('failed', `response broken off (${describeError(err)})`));
        });
        sent.end(r.body ?? undefined);
      };
      send(false);
    });
  }

  /**
   * A fetch for oauth4webapi's customFetch: the same bounds, and a Response handed over only once
   * its body is read within them. A request without a response throws HttpRequestError.
   */
  fetcher(limits: { timeoutMs: number; maxBytes: number }): (url: string, init: RequestInit) => Promise<Response> {
    return async (url, init) => {
      const body = init.body;
      if (body != null && typeof body !== 'string' && !(body instanceof URLSearchParams)) throw new TypeError('unsupported request body');
      const result = await this.request(url, {
        ...limits,
        method: init.method ?? 'GET',
        headers: Object.fromEntries(new Headers(init.headers)),
        body: body == null ? null : body.toString(),
        signal: init.signal ?? undefined,
      });
      if (!result.ok) throw new HttpRequestError(result);
      const bodiless = [204, 205, 304].includes(result.status);
      return new Response(bodiless ? null : result.body, { status: result.status, headers: result.headers });
    };
  }

  /** Ends every request in flight and every pooled connection; requests made afterwards fail as stopped. */
  close(): void {
    this.closing.abort();
    this.agents.http.destroy();
    this.agents.https.destroy();
  }
}

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

/** One line naming why there was no response, without the request (and so without its headers). */
function describeError(err: unknown): string {
  const { code, message = '' } = err as Partial<NodeJS.ErrnoException>;
  // The first line only: a TLS failure's message goes on with OpenSSL's details.
  const first = message.split('\n')[0]!.trim();
  if (code && FAILURES[code]) return `${FAILURES[code]} (${code})`;
  if (code) return `${code}${first && !first.includes(code) ? ` ${first}` : ''}`;
  return first || 'request failed';
}

/** One line for a result that is not the status expected: `HTTP 429`, or the failure's own line. */
export function describeResult(result: HttpResult): string {
  return result.ok ? `HTTP ${result.status}` : result.error;
}

/** The address of a request without what may be secret in it: user and password, and the query. */
export function withoutSecrets(url: URL | string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}
