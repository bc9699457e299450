// Parsing a data feed document and matching its controllers to the division's positions.
import { FeedShapeError, parseFeed, positionMatcher, type Sighting, sightingsOf } from '../domain/network/feed.js';

export type ParsedFeed = { ok: true; generatedAt: number; sightings: Sighting[] } | { ok: false; message: string };

export function parseAndMatch(body: Uint8Array, positions: readonly string[]): ParsedFeed {
  try {
    const feed = parseFeed(JSON.parse(Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')));
    return { ok: true, generatedAt: feed.generatedAt, sightings: sightingsOf(feed.controllers, positionMatcher(positions)) };
  } catch (err) {
    return { ok: false, message: err instanceof FeedShapeError ? `an unexpected shape: ${err.message}` : 'something that is not JSON' };
  }
}
