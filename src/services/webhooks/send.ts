// One POST to a receiver, treated as hostile: one deadline for connecting and answering, no
// redirects, no connection reuse, and at most a little of its answer read.
import http from 'node:http';
import https from 'node:https';

/** Bytes of a receiver's answer kept (for the attempt's error text); the rest is never read. */
const MAX_ANSWER_BYTES = 1024;

export interface SendResult {
  /** The receiver's status code, or null when there was no answer in time. */
  statusCode: number | null;
  /** Why the attempt failed, or null on a 2xx. */
  error: string | null;
  durationMs: number;
}

export function postWebhook(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<SendResult> {
  const started = performance.now();
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      request.destroy();
      resolve({ statusCode, error, durationMs: Math.round(performance.now() - started) });
    };
    const target = new URL(url);
    const client = target.protocol === 'https:' ? https : http;
    const request = client.request(target, {
      method: 'POST',
      // agent false: a fresh connection each time, closed afterwards; nothing a receiver does lingers in a pool.
      agent: false,
      headers: {
        ...headers,
        'content-type': 'application/json',
        'content-length': String(Buffer.byteLength(body)),
        'user-agent': 'Sector-Webhooks/1',
      },
    });
    const timer = setTimeout(() => finish(null, `timed out after ${timeoutMs} ms`), timeoutMs);
    const onAbort = () => finish(null, 'aborted: the server is shutting down');
    signal?.addEventListener('abort', onAbort);
    request.on('error', (err: NodeJS.ErrnoException) => finish(null, err.code ? `${err.code}: ${err.message}` : err.message));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      const error = ok ? null : status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
      let kept = 0;
      const excerpt: Buffer[] = [];
      response.on('data', (chunk: Buffer) => {
        if (kept < MAX_ANSWER_BYTES) excerpt.push(chunk.subarray(0, MAX_ANSWER_BYTES - kept));
        kept += chunk.length;
        // Enough: the socket is destroyed, the rest of a huge body never read.
        if (kept >= MAX_ANSWER_BYTES) finish(status, withExcerpt(error, excerpt));
      });
      response.on('end', () => finish(status, withExcerpt(error, excerpt)));
      response.on('error', () => finish(status, error));
    });
    request.end(body);
  });
}

function withExcerpt(error: string | null, excerpt: Buffer[]): string | null {
  if (error === null) return null;
  const text = Buffer.concat(excerpt)
    .toString('utf8')
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .trim()
    .slice(0, 200);
  return text ? `${error}: ${text}` : error;
}
