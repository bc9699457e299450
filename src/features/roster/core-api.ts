// The network's API v2 (roster, members), read for the roster sync: each response checked, a
// failure one line that names the request.
import { describeResult, type HttpClient } from '../../core/http-client.js';
import { RosterSyncError } from './roster-run.js';

/** A roster page of 1,000 members is a few hundred kilobytes. */
const MAX_PAGE_BYTES = 8 * 1024 * 1024;

export class CoreApi {
  private readonly base: URL;
  constructor(
    private readonly http: HttpClient,
    url: string,
    private readonly key: string,
    private readonly timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.base = new URL(`${url}/`);
  }

  /** The parsed body of a 200; null for a 404 when `notFoundIsNull`; anything else throws. */
  async json(path: string, where: string, notFoundIsNull = false): Promise<unknown> {
    const result = await this.http.request(new URL(path, this.base), {
      headers: { accept: 'application/json', 'x-api-key': this.key },
      timeoutMs: this.timeoutMs,
      maxBytes: MAX_PAGE_BYTES,
      signal: this.signal,
    });
    if (result.ok && result.status === 404 && notFoundIsNull) return null;
    if (!result.ok || result.status !== 200)
      throw new RosterSyncError(`the network's API failed (${where}): ${describeResult(result)}; nothing changed`);
    try {
      return JSON.parse(result.body.toString('utf8'));
    } catch {
      throw new RosterSyncError(`the network's API responded with something that is not JSON (${where}); nothing changed`);
    }
  }
}
