// One poll of the network's data feed (contract §16): the division's controllers recorded as
// sessions, by one instance at a time (the data-feed worker's lease). A failed poll, or a feed that is not
// the documented shape, changes nothing: sessions stay open and continue at the next good poll.
import { performance } from 'node:perf_hooks';
import type { DataFeedConfig } from '../../config.js';
import { FeedShapeError, MAX_FEED_AHEAD_MS, parseFeed, positionMatcher, type Sighting, sightingsOf, sightingTime } from './feed.domain.js';
import { isoMicros } from '../../core/domain/time.js';
import { HttpClient } from '../../core/http-client.js';
import type { Deps } from '../../app/deps.js';
import type { NoticeSite } from '../notices/index.js';
import { alertInactiveOnline } from './notices.js';

/** The real feed is several megabytes; a body past this is refused, not read on. */
const MAX_FEED_BYTES = 32 * 1024 * 1024;

export class FeedPollError extends Error {
  /** True when the feed did not respond at all (no network, its host not found, nothing listening). */
  constructor(
    message: string,
    readonly unreachable = false,
  ) {
    super(message);
  }
}

export interface PollOutcome {
  /** Controllers on a division position. */
  sightings: number;
  /** cids whose sessions ended in this poll. */
  ended: number[];
  /** Time taken by parsing and matching (wall clock, in ms). */
  processingMs: number;
}

/** The clock is the application's: sightings are never later than its now. */
export type FeedPollDeps = Deps<'writer' | 'repos' | 'clock'> & {
  /** The process's outbound client; one for this poll alone unless given. */
  http?: HttpClient;
  feed: DataFeedConfig;
  /** Where alert mails link (contract §24): with it, a poll alerts Moderators of inactive controllers online. */
  site?: NoticeSite;
  /** Called with the cids whose sessions ended (activity is recomputed for them). */
  onEnded?: (cids: number[]) => Promise<void>;
};

/** The data-feed worker's poll (contract §16). */
export class FeedPollService {
  constructor(private readonly deps: FeedPollDeps) {}

  poll(signal?: AbortSignal): Promise<PollOutcome> {
    return pollFeed(this.deps, signal);
  }

  /** Records one feed document already read (the benchmark measures this part). */
  process(body: Buffer): Promise<PollOutcome> {
    return processFeed(this.deps, body);
  }
}

async function pollFeed(deps: FeedPollDeps, signal?: AbortSignal): Promise<PollOutcome> {
  const url = new URL(deps.feed.url);
  const http = deps.http ?? new HttpClient();
  const result = await http.request(url, {
    headers: { accept: 'application/json' },
    timeoutMs: Math.min(30_000, Math.max(5_000, deps.feed.intervalS * 1000)),
    maxBytes: MAX_FEED_BYTES,
    signal,
  });
  if (http !== deps.http) http.close();
  if (!result.ok) throw new FeedPollError(`data feed failed: ${result.error}`, result.reason === 'failed' || result.reason === 'timeout');
  if (result.status !== 200) throw new FeedPollError(`data feed failed: ${url.host}: HTTP ${result.status}`);
  return processFeed(deps, result.body);
}

/** Records one feed document already read (the poll's work after the download). */
async function processFeed(deps: FeedPollDeps, body: Buffer): Promise<PollOutcome> {
  const started = performance.now();
  // Several megabytes parsed on the event loop, once a minute by one instance: tens of milliseconds.
  const parsed = parseAndMatch(body, await deps.repos.positions.callsigns());
  if (!parsed.ok) throw new FeedPollError(`data feed responded with ${parsed.message}`);
  const { sightings, generatedAt } = parsed;
  const now = deps.clock();
  const seenAt = sightingTime(generatedAt, now);
  if (seenAt === null)
    throw new FeedPollError(
      `data feed responded with a document dated ${isoMicros(generatedAt)}, more than ${MAX_FEED_AHEAD_MS / 60_000} minutes ahead of this server's clock (${isoMicros(now)})`,
    );
  const processingMs = performance.now() - started;
  const ended = await deps.writer.write(async (w) => {
    const ended = await w.repos.controllingSessions.recordPoll(sightings, seenAt);
    if (deps.site) await alertInactiveOnline(w, deps.site);
    return ended;
  });
  if (ended.length > 0) await deps.onEnded?.(ended);
  return { sightings: sightings.length, ended, processingMs };
}

/** A feed document parsed and its controllers matched to the division's positions. */
type ParsedFeed = { ok: true; generatedAt: number; sightings: Sighting[] } | { ok: false; message: string };

function parseAndMatch(body: Uint8Array, positions: readonly string[]): ParsedFeed {
  try {
    const feed = parseFeed(JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')));
    return { ok: true, generatedAt: feed.generatedAt, sightings: sightingsOf(feed.controllers, positionMatcher(positions)) };
  } catch (err) {
    return { ok: false, message: err instanceof FeedShapeError ? `an unexpected shape: ${err.message}` : 'something that is not JSON' };
  }
}
