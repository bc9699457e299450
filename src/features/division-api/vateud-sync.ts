// The VATEUD Core requests of the reconcile (contract §22, division:sync), through vateud-http.ts. Unlike the outbox's requests nothing is retried here: any
// answer but a 2xx stops the run (HubFailure), which the next run picks up from the hub's lists.
import { type DivisionHub, HubFailure, type HubTierRecord, parseRoster, parseTierList, type TierAdd } from './division-sync.domain.js';
import type { VateudHttp } from './vateud-http.js';

export class VateudSyncHub implements DivisionHub {
  constructor(private readonly hub: VateudHttp) {}

  async roster(signal: AbortSignal): Promise<number[]> {
    const cids = parseRoster(await this.call('GET', '/facility/roster', signal));
    if (cids === null) throw new HubFailure("GET /facility/roster: the hub's answer is not a roster");
    return cids;
  }

  async tiers(tier: 1 | 2, signal: AbortSignal): Promise<HubTierRecord[]> {
    const path = `/facility/endorsements/tier-${tier}`;
    const records = parseTierList(tier, await this.call('GET', path, signal));
    if (records === null) throw new HubFailure(`GET ${path}: the hub's answer is not a list of endorsements`);
    return records;
  }

  async addMember(cid: number, signal: AbortSignal): Promise<void> {
    await this.call('POST', `/facility/roster/${cid}`, signal);
  }

  async removeMember(cid: number, signal: AbortSignal): Promise<void> {
    await this.call('DELETE', `/facility/roster/${cid}`, signal, undefined, true);
  }

  async addTier(t: TierAdd, signal: AbortSignal): Promise<void> {
    const body = { user_cid: t.user_cid, position: t.position, instructor_cid: t.instructor_cid };
    await this.call('POST', `/facility/endorsements/tier-${t.tier}`, signal, body);
  }

  async removeTier(r: HubTierRecord, signal: AbortSignal): Promise<void> {
    await this.call('DELETE', `/facility/endorsements/tier-${r.tier}/${r.id}`, signal, undefined, true);
  }

  /** The parsed answer of a 2xx; `goneIsDone`: a 404 to a delete is what was wanted. */
  private async call(method: string, path: string, signal: AbortSignal, body?: object, goneIsDone = false): Promise<unknown> {
    const r = await this.hub.call(method, path, { signal, ...(body ? { body } : {}), maxBytes: 16 * 1024 * 1024 });
    if (!r.ok) throw new HubFailure(`${method} ${path}: ${r.error}`);
    if (r.status >= 200 && r.status < 300) {
      if (method === 'GET' && !r.json) throw new HubFailure(`${method} ${path}: the hub's answer is not JSON`);
      return r.body;
    }
    if (goneIsDone && r.status === 404) return null;
    throw new HubFailure(`${method} ${path}: HTTP ${r.status}${r.message === null ? '' : ` ${r.message.slice(0, 300)}`}`);
  }
}
