// The members' past sessions from the network's ATC history (contract §16), so a division does not
// start with everyone inactive. At most 10 requests a minute (the network throttles harder), and
// resumable: each page is recorded with how far that member has come, in one transaction.
import { setTimeout as sleep } from 'node:timers/promises';
import { FeedShapeError, parseHistoryPage, positionMatcher } from './feed.domain.js';
import { isMember } from '../roster/domain.js';
import { describeResult } from '../../core/http-client.js';
import type { RosterSyncDeps } from '../roster/index.js';

const PAGE = 100;
const MAX_BYTES = 4 * 1024 * 1024;

export class BackfillError extends Error {}

export type BackfillDeps = RosterSyncDeps & {
  /** Time between two requests: 6 s keeps to 10 a minute. */
  spacingMs: number;
  onProgress?: (line: string) => void;
};

export interface BackfillResult {
  members: number;
  requests: number;
  added: number;
  /** cids whose history was read to the end in this run. */
  done: number[];
}

/** `npx sector activity:backfill`. */
export class ActivityBackfillService {
  constructor(private readonly deps: BackfillDeps) {}

  run(cid: number | null, onProgress?: (line: string) => void, signal?: AbortSignal): Promise<BackfillResult> {
    return backfillActivity({ ...this.deps, ...(onProgress ? { onProgress } : {}) }, cid, signal);
  }
}

async function backfillActivity(deps: BackfillDeps, cid: number | null, signal?: AbortSignal): Promise<BackfillResult> {
  const { repos, coreApi } = deps;
  if (coreApi.key === null) throw new BackfillError('CORE_API_KEY is not set: the members\u2019 history cannot be read from the network');
  const users = await repos.users.divisions();
  const members = cid === null ? users.filter((u) => isMember(u, deps.membership)).map((u) => u.id) : [cid];
  // Asked for by name: read again from the start.
  if (cid !== null) await deps.writer.write((w) => w.repos.controllingSessions.resetBackfill(cid));
  const progress = new Map((await repos.controllingSessions.backfillProgress()).map((p) => [p.cid, p]));
  const match = positionMatcher(await repos.positions.callsigns());
  const base = new URL(`${coreApi.url}/`);
  const result: BackfillResult = { members: 0, requests: 0, added: 0, done: [] };
  let last = 0;
  for (const member of members) {
    const p = progress.get(member);
    if (p?.done_at != null) continue;
    result.members++;
    let offset = p?.next_offset ?? 0;
    for (;;) {
      const wait = last + deps.spacingMs - Date.now();
      if (wait > 0 && result.requests > 0) await sleep(wait, undefined, signal ? { signal } : {});
      last = Date.now();
      result.requests++;
      const where = `v2/members/${member}/atc?offset=${offset}`;
      const response = await deps.http.request(new URL(`v2/members/${member}/atc?limit=${PAGE}&offset=${offset}`, base), {
        headers: { accept: 'application/json', 'x-api-key': coreApi.key },
        timeoutMs: coreApi.timeoutMs,
        maxBytes: MAX_BYTES,
        signal,
      });
      if (!response.ok || response.status !== 200) {
        throw new BackfillError(`the network's API failed (${where}): ${describeResult(response)}; run again to resume from here`);
      }
      let page;
      try {
        page = parseHistoryPage(JSON.parse(response.body.toString('utf8')));
      } catch (err) {
        const why = err instanceof FeedShapeError ? `an unexpected shape (${err.message})` : 'something that is not JSON';
        throw new BackfillError(`the network's API responded with ${why} (${where}); run again to resume from here`);
      }
      const sessions = page.items.flatMap((s) => {
        const position = match(s.callsign);
        return position === null ? [] : [{ cid: member, callsign: s.callsign, position, logon_time: s.start, ended_at: s.end }];
      });
      const next = offset + page.items.length;
      const finished = page.items.length === 0 || next >= page.count;
      const now = deps.clock();
      result.added += await deps.writer.write(async (w) => {
        const added = await w.repos.controllingSessions.recordHistory(member, sessions);
        await w.repos.controllingSessions.noteBackfill(member, next, finished ? now : null);
        return added;
      });
      offset = next;
      if (finished) break;
    }
    result.done.push(member);
    deps.onProgress?.(`member ${member}: history read`);
  }
  return result;
}
