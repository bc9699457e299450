// Pure rules of the network's data feed (contract §16, vatsimnetwork/vatsim.dev openapi/data.yaml,
// DataFeed v3): what a feed must look like, and which controllers count for a division position.
import { parseIsoInstant } from '../../core/domain/time.js';

/** A controller of the feed who counts for a position of the division. */
export interface Sighting {
  cid: number;
  callsign: string;
  /** The division position's callsign. */
  position: string;
  name: string | null;
  frequency: string | null;
  logon_time: number;
}

export interface FeedController {
  cid: number;
  callsign: string;
  facility: number;
  name: string | null;
  frequency: string | null;
  logon_time: number;
}

export class FeedShapeError extends Error {}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown, max: number): string | null => (typeof v === 'string' && v.length <= max ? v : null);

/** The feed's time and controllers; a controller missing a needed field is skipped, so one odd entry cannot hide the others. */
export function parseFeed(v: unknown): { generatedAt: number; controllers: FeedController[] } {
  if (!isObj(v) || !isObj(v.general) || !Array.isArray(v.controllers))
    throw new FeedShapeError('not a data feed (no general or controllers)');
  const generatedAt = typeof v.general.update_timestamp === 'string' ? parseIsoInstant(v.general.update_timestamp) : null;
  if (generatedAt === null) throw new FeedShapeError('general.update_timestamp is not an instant');
  const controllers: FeedController[] = [];
  for (const c of v.controllers) {
    if (!isObj(c)) continue;
    const callsign = text(c.callsign, 40);
    const logon = typeof c.logon_time === 'string' ? parseIsoInstant(c.logon_time) : null;
    if (typeof c.cid !== 'number' || !Number.isSafeInteger(c.cid) || c.cid <= 0 || callsign === null || logon === null) continue;
    if (typeof c.facility !== 'number' || !Number.isInteger(c.facility)) continue;
    controllers.push({
      cid: c.cid,
      callsign: callsign.toUpperCase(),
      facility: c.facility,
      name: text(c.name, 200),
      frequency: text(c.frequency, 20),
      // As the network gave it: a skewed one is clamped to the sighting (sightingStart).
      logon_time: logon,
    });
  }
  return { generatedAt, controllers };
}

const firstAndLast = (callsign: string): string | null => {
  const parts = callsign.split('_');
  return parts.length < 2 ? null : `${parts[0]}_${parts[parts.length - 1]}`;
};

/**
 * The position a controller's callsign counts for: an exact match, else one with the same first and
 * last `_` parts (EKCH_A_TWR counts for EKCH_TWR); the two-part one wins a tie.
 */
export function positionMatcher(positions: readonly string[]): (callsign: string) => string | null {
  const exact = new Map(positions.map((p) => [p.toUpperCase(), p]));
  const byParts = new Map<string, string>();
  for (const p of positions) {
    const key = firstAndLast(p.toUpperCase());
    if (key === null) continue;
    const held = byParts.get(key);
    if (held === undefined || (p.toUpperCase() === key && held.toUpperCase() !== key)) byParts.set(key, p);
  }
  return (callsign) => {
    const upper = callsign.toUpperCase();
    const hit = exact.get(upper);
    if (hit !== undefined) return hit;
    const key = firstAndLast(upper);
    return key === null ? null : (byParts.get(key) ?? null);
  };
}

/**
 * The controllers who count for a position of the division (facility > 0: not observers). A cid
 * listed twice on one callsign is one session: the entry with the earliest logon is kept.
 */
export function sightingsOf(controllers: readonly FeedController[], match: (callsign: string) => string | null): Sighting[] {
  const out = new Map<string, Sighting>();
  for (const c of controllers) {
    if (c.facility <= 0) continue;
    const position = match(c.callsign);
    if (position === null) continue;
    const key = `${c.cid}|${c.callsign}`;
    const held = out.get(key);
    if (held !== undefined && held.logon_time <= c.logon_time) continue;
    out.set(key, { cid: c.cid, callsign: c.callsign, position, name: c.name, frequency: c.frequency, logon_time: c.logon_time });
  }
  return [...out.values()];
}

/** How far a feed may be dated ahead of this server's clock (clocks differ a little) before it is refused. */
export const MAX_FEED_AHEAD_MS = 2 * 60_000;

/**
 * When a feed's controllers were seen: the feed's time, never later than now (a stored time in the
 * future would keep a session open and growing); null for a feed dated too far ahead to believe.
 */
export function sightingTime(generatedAt: number, now: number): number | null {
  return generatedAt > now + MAX_FEED_AHEAD_MS ? null : Math.min(generatedAt, now);
}

/** A session's start: its logon, never after its first sighting (the network's clocks may run ahead). */
export const sightingStart = (logon: number, seenAt: number): number => Math.min(logon, seenAt);

/** The key of a session: one connection of one controller on one callsign. */
export const sessionKey = (s: { cid: number; callsign: string; logon_time: number }): string => `${s.cid}|${s.callsign}|${s.logon_time}`;

/** A past session of a member's ATC history (`GET /v2/members/{cid}/atc`). */
export interface HistoryItem {
  callsign: string;
  start: number;
  end: number;
}

/** The network writes these instants without a zone; they are UTC. */
const utcInstant = (v: unknown): number | null =>
  typeof v !== 'string' ? null : parseIsoInstant(/(Z|[+-]\d{2}:?\d{2})$/.test(v) ? v : `${v}Z`);

/** One page of a member's ATC history: `{"items": [{"connection_id": {"callsign", "start", "end"}}], "count"}`. */
export function parseHistoryPage(v: unknown): { items: HistoryItem[]; count: number } {
  if (!isObj(v) || !Array.isArray(v.items) || typeof v.count !== 'number' || !Number.isSafeInteger(v.count)) {
    throw new FeedShapeError('not a page of ATC sessions (items and count)');
  }
  const items: HistoryItem[] = [];
  for (const item of v.items) {
    const c = isObj(item) && isObj(item.connection_id) ? item.connection_id : null;
    if (c === null) throw new FeedShapeError('an item has no connection_id');
    const callsign = text(c.callsign, 40);
    const start = utcInstant(c.start);
    const end = utcInstant(c.end);
    // A session still running has no end yet: the feed records it.
    if (callsign === null || start === null || end === null || end <= start) continue;
    items.push({ callsign: callsign.toUpperCase(), start, end });
  }
  return { items, count: v.count };
}
