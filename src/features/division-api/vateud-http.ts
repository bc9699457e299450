// One request to VATEUD Core (contract §22) — for the outbox's driver, the reconcile and the live
// questions alike: the key and headers, the one HTTP client, the answer read as JSON with the hub's
// `message`. What an answer means is each caller's to say.
import type { DivisionApiConfig } from '../../config.js';
import type { HttpClient, HttpFailure } from '../../core/http-client.js';

export type HubReply =
  | {
      ok: true;
      status: number;
      /** The answer as JSON; null when empty or not JSON (`json` says which). */
      body: unknown;
      json: boolean;
      /** The hub's `{"message"}`, if it gave one. */
      message: string | null;
    }
  | HttpFailure;

export interface HubCall {
  signal?: AbortSignal | undefined;
  /** A JSON body. */
  body?: object;
  /** A multipart body, its boundary in `type`. */
  form?: { bytes: Buffer; type: string };
  /** The request's deadline; the driver's DIVISION_API_TIMEOUT_MS unless said. */
  timeoutMs?: number;
  maxBytes: number;
}

export class VateudHttp {
  readonly host: string;

  constructor(private readonly o: { http: HttpClient; config: DivisionApiConfig; userAgent: string }) {
    this.host = new URL(o.config.url).host;
  }

  async call(method: string, path: string, c: HubCall): Promise<HubReply> {
    const r = await this.o.http.request(`${this.o.config.url}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        'x-api-key': this.o.config.key,
        'user-agent': this.o.userAgent,
        ...(c.form ? { 'content-type': c.form.type } : c.body ? { 'content-type': 'application/json' } : {}),
      },
      body: c.form ? c.form.bytes : c.body ? JSON.stringify(c.body) : null,
      timeoutMs: c.timeoutMs ?? this.o.config.timeoutMs,
      maxBytes: c.maxBytes,
      signal: c.signal,
    });
    if (!r.ok) return r;
    let body: unknown = null;
    let json = false;
    try {
      body = JSON.parse(r.body.toString('utf8'));
      json = true;
    } catch {
      // Empty or not JSON: `json` false, and the caller decides what that means.
    }
    const said = typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string';
    return { ok: true, status: r.status, body, json, message: said ? (body as { message: string }).message.slice(0, 500) : null };
  }
}
