// The one outbound HTTP client (webhooks, the network's bookings service, Connect, API v2, the data
// feed). Every other service is treated as hostile: one deadline for the whole exchange, body
// included; the body read up to a cap; no redirect followed (a 3xx is a response like any other);
// every request ended by close() at shutdown; and headers (keys, secrets) never in a message.

export interface HttpRequest {
  /** GET unless said. */
  method?: string;
  headers?: Record<string, string>;
  body?: RequestInit['body'];
  /** The whole exchange, response body included. */
  timeoutMs: number;
  maxBytes: number;
  /** Past maxBytes: fail the request (a document must be whole), or keep the first maxBytes and the status. */
  overflow?: 'fail' | 'truncate';
  /** Ends the request when it aborts (a job or a consumer stopping). */
  signal?: AbortSignal | undefined;
  /** What a failure's line starts with; the URL's host unless said. */
  label?: string;
}

export type HttpResult =
  | { ok: true; status: number; headers: Headers; body: Buffer }
  /** No response: `error` is one line naming the host and what happened. */
  | { ok: false; reason: 'timeout' | 'stopped' | 'too-large' | 'failed'; error: string };

export type HttpFailure = Extract<HttpResult, { ok: false }>;

/** A failed request, thrown by the fetch-compatible function (oauth4webapi expects a throw). */
export class HttpRequestError extends Error {
  constructor(readonly failure: HttpFailure) {
    super(failure.error);
  }
}

export class HttpClient {
  private readonly closing = new AbortController();

  async request(target: URL | string, r: HttpRequest): Promise<HttpResult> {
    const url = new URL(target);
    // Credentials never travel in a URL (the settings refuse them, and fetch refuses such a request).
    url.username = '';
    url.password = '';
    const label = r.label ?? url.host;
    // A controller per request, its listeners removed afterwards: the long-lived close signal keeps nothing.
    // Its reason (the first abort's) says why the request ended early.
    const controller = new AbortController();
    const stop = () => controller.abort('stopped');
    const timer = setTimeout(() => controller.abort('timeout'), r.timeoutMs);
    const signals = r.signal ? [this.closing.signal, r.signal] : [this.closing.signal];
    for (const s of signals) {
      if (s.aborted) stop();
      else s.addEventListener('abort', stop, { once: true });
    }
    let responded = false;
    try {
      const response = await fetch(url, {
        method: r.method ?? 'GET',
        headers: { 'user-agent': 'Sector', ...r.headers },
        body: r.body ?? null,
        redirect: 'manual',
        signal: controller.signal,
      });
      responded = true;
      const body = await readCapped(response, r.maxBytes, r.overflow ?? 'fail');
      if (body === null) return { ok: false, reason: 'too-large', error: `${label}: answer larger than ${r.maxBytes} bytes` };
      return { ok: true, status: response.status, headers: response.headers, body };
    } catch (err) {
      const why = controller.signal.aborted ? (controller.signal.reason as 'timeout' | 'stopped') : null;
      if (why === 'stopped') return { ok: false, reason: 'stopped', error: 'stopped' };
      if (why === 'timeout') return { ok: false, reason: 'timeout', error: `${label}: no answer within ${r.timeoutMs} ms` };
      const what = describeError(err);
      return { ok: false, reason: 'failed', error: `${label}: ${responded ? `answer broken off (${what})` : what}` };
    } finally {
      clearTimeout(timer);
      for (const s of signals) s.removeEventListener('abort', stop);
    }
  }

  /**
   * A fetch for oauth4webapi's customFetch: the same bounds, and a Response handed over only once
   * its body is read within them. A request with no response throws HttpRequestError.
   */
  fetcher(limits: { timeoutMs: number; maxBytes: number }): (url: string, init: RequestInit) => Promise<Response> {
    return async (url, init) => {
      const result = await this.request(url, {
        ...limits,
        method: init.method ?? 'GET',
        headers: Object.fromEntries(new Headers(init.headers)),
        body: init.body ?? null,
        signal: init.signal ?? undefined,
      });
      if (!result.ok) throw new HttpRequestError(result);
      const bodiless = [204, 205, 304].includes(result.status);
      return new Response(bodiless ? null : result.body, { status: result.status, headers: result.headers });
    };
  }

  /** Ends every request in flight, and any made afterwards. */
  close(): void {
    this.closing.abort();
  }
}

/** The body up to the cap; null when it is past the cap and the request must fail. */
async function readCapped(response: Response, maxBytes: number, overflow: 'fail' | 'truncate'): Promise<Buffer | null> {
  if (response.body === null) return Buffer.alloc(0);
  const reader = response.body.getReader() as ReadableStreamDefaultReader<Uint8Array>;
  // Cancelling closes the connection, so the rest of a huge body is never read.
  const cancel = () => reader.cancel().catch(() => {});
  if (overflow === 'fail' && Number(response.headers.get('content-length') ?? NaN) > maxBytes) {
    await cancel();
    return null;
  }
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(parts, size);
    if (size + value.byteLength > maxBytes) {
      await cancel();
      if (overflow === 'fail') return null;
      parts.push(value.subarray(0, maxBytes - size));
      return Buffer.concat(parts, maxBytes);
    }
    parts.push(value);
    size += value.byteLength;
  }
}

/** Connection failures as words, the code kept for searching. */
const FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ETIMEDOUT: 'connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'connection timed out',
  UND_ERR_SOCKET: 'connection closed by the other side',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ENOTFOUND: 'host name not found',
  EAI_AGAIN: 'host name lookup failed for now',
  EPIPE: 'connection closed while sending',
  HPE_INVALID_CONSTANT: 'not an HTTP response',
  CERT_HAS_EXPIRED: 'certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in the chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate not trusted',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificate not for this host',
};

type ErrorLike = { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };

/**
 * One line naming why there was no response. fetch wraps the real error as `TypeError: fetch
 * failed` with it in `cause` (an AggregateError when every address failed): the innermost is named.
 */
export function describeError(err: unknown): string {
  let e = err as ErrorLike | null;
  for (let depth = 0; depth < 5 && e; depth++) {
    const inner = (Array.isArray(e.errors) && e.errors.length > 0 ? e.errors[0] : e.cause) as ErrorLike | null | undefined;
    if (!inner || typeof inner !== 'object') break;
    e = inner;
  }
  const code = typeof e?.code === 'string' ? e.code : null;
  const message = typeof e?.message === 'string' ? e.message.split('\n')[0]!.trim() : '';
  if (code && FAILURES[code]) return `${FAILURES[code]} (${code})`;
  if (code) return `${code}${message && !message.includes(code) ? ` ${message}` : ''}`;
  if (message === 'bad port') return 'a port fetch refuses to use (bad port)';
  // Thrown before sending (a malformed header, say): its message may quote a header, so it is not repeated.
  if (e === err) return 'request not sent (invalid URL or headers)';
  return message || 'request failed';
}

/** The address of a request without what may be secret in it: user and password, and the query. */
export function withoutSecrets(url: URL | string): string {
  const u = new URL(url);
  return `${u.protocol}//${u.host}${u.pathname}`;
}

/** One line for a result that is not the status expected: `HTTP 429`, or the failure's own line. */
export function describeResult(result: HttpResult): string {
  return result.ok ? `HTTP ${result.status}` : result.error;
}
