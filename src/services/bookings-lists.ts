// The answers of GET /api/bookings. Live bookings are kept serialised, per form, with an index of
// where each booking's bytes lie and what the filters compare (start, end, id, booker, position):
// the full list, and the window of those ending after yesterday began, which is all a list from
// now on needs however many past bookings pile up. A filtered list or a page is cut from those
// bytes: no query, nothing serialised again, and nothing kept, so one-off filters (each `from` to
// the millisecond) cost little and cannot crowd the response cache. A list too large to keep is
// answered per request from a query of the filter's own window instead.
import { createHash } from 'node:crypto';
import type { Topic } from '../db/freshness.js';
import type { BookingListFilter, ListPosition } from '../domain/bookings/index.js';
import type { Clock } from '../domain/time.js';
import { bookingListBody, type BookingForm, presentBooking } from '../presenters/bookings.js';
import type { BookingsRepository, BookingView } from '../repositories/bookings.js';
import { type CachedBody, withEtag } from './cached-body.js';
import type { ResponseCache } from './response-cache.js';

export interface ListAnswer {
  body: Buffer;
  etag: string;
  /** Where the next page starts, when `limit` was given and more bookings follow. */
  next: ListPosition | null;
}

/** The full list `[b1,b2,…]` and, for booking i (in list order), what filters compare and where its bytes lie. */
interface Snapshot extends CachedBody {
  count: number;
  timeStart: Float64Array;
  timeEnd: Float64Array;
  ids: Float64Array;
  userIds: Float64Array;
  positionIds: Float64Array;
  positionByCallsign: Map<string, number>;
  /** Byte offsets of booking i in `body`: [starts[i], ends[i]). */
  starts: Uint32Array;
  ends: Uint32Array;
}

/** Index bytes per booking (five numbers and two offsets), besides its serialised bytes. */
const INDEX_BYTES_PER_BOOKING = 5 * 8 + 2 * 4;

const DATA_OPEN = Buffer.from('{"data":');
const DATA_CLOSE = Buffer.from('}');
const COMMA = 0x2c;

function snapshotOf(rows: BookingView[], form: BookingForm): Snapshot {
  const n = rows.length;
  const parts = rows.map((b) => JSON.stringify(presentBooking(b, form)));
  // The same bytes as JSON.stringify of the whole array.
  const body = Buffer.from(`[${parts.join(',')}]`);
  const snapshot: Snapshot = {
    ...withEtag(body),
    count: n,
    timeStart: new Float64Array(n),
    timeEnd: new Float64Array(n),
    ids: new Float64Array(n),
    userIds: new Float64Array(n),
    positionIds: new Float64Array(n),
    positionByCallsign: new Map(),
    starts: new Uint32Array(n),
    ends: new Uint32Array(n),
    extraBytes: n * INDEX_BYTES_PER_BOOKING,
  };
  let offset = 1;
  rows.forEach((b, i) => {
    snapshot.timeStart[i] = b.time_start;
    snapshot.timeEnd[i] = b.time_end;
    snapshot.ids[i] = b.id;
    snapshot.userIds[i] = b.user_id;
    snapshot.positionIds[i] = b.position_id;
    snapshot.positionByCallsign.set(b.callsign, b.position_id);
    snapshot.starts[i] = offset;
    offset += Buffer.byteLength(parts[i]!);
    snapshot.ends[i] = offset;
    offset += 1; // the comma
  });
  return snapshot;
}

/** The first booking at or after a position in list order (time_start, then id): binary search. */
function firstAfter(s: Snapshot, after: ListPosition): number {
  let lo = 0;
  let hi = s.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const later = s.timeStart[mid]! > after.time_start || (s.timeStart[mid] === after.time_start && s.ids[mid]! > after.id);
    if (later) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The first booking that starts at or after `to` (none of those is in the window). */
function firstStartingFrom(s: Snapshot, to: number): number {
  let lo = 0;
  let hi = s.count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (s.timeStart[mid]! >= to) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * Indexes of the bookings the filter selects, in list order: the same conditions as the
 * repository's query (bookingsRepository.list), one more than `limit` to tell whether a page follows.
 */
function select(s: Snapshot, f: BookingListFilter): number[] {
  const position = f.callsign === undefined ? undefined : s.positionByCallsign.get(f.callsign);
  if (f.callsign !== undefined && position === undefined) return [];
  const lo = f.after === undefined ? 0 : firstAfter(s, f.after);
  const hi = f.to === undefined ? s.count : firstStartingFrom(s, f.to);
  const wanted = f.limit === undefined ? Infinity : f.limit + 1;
  const picked: number[] = [];
  for (let i = lo; i < hi && picked.length < wanted; i++) {
    if (f.from !== undefined && s.timeEnd[i]! <= f.from) continue;
    if (position !== undefined && s.positionIds[i] !== position) continue;
    if (f.cid !== undefined && s.userIds[i] !== f.cid) continue;
    picked.push(i);
  }
  return picked;
}

/**
 * The bytes of the picked bookings, copied from the snapshot in runs of neighbours, and an ETag
 * made from the snapshot's and the runs: equal ETags mean equal bytes, without hashing them.
 */
function cut(s: Snapshot, picked: number[], envelope: boolean): { body: Buffer; etag: string } {
  const runs: Array<[first: number, last: number]> = [];
  for (const i of picked) {
    const run = runs[runs.length - 1];
    if (run && run[1] === i - 1) run[1] = i;
    else runs.push([i, i]);
  }
  const hash = createHash('sha1')
    .update(s.etag)
    .update(envelope ? '|data|' : '|array|');
  let length = 2 + Math.max(0, runs.length - 1) + (envelope ? DATA_OPEN.length + DATA_CLOSE.length : 0);
  for (const [first, last] of runs) {
    length += s.ends[last]! - s.starts[first]!;
    hash.update(`${first}-${last},`);
  }
  const body = Buffer.allocUnsafe(length);
  let at = envelope ? DATA_OPEN.copy(body, 0) : 0;
  body[at++] = 0x5b; // [
  runs.forEach(([first, last], r) => {
    if (r > 0) body[at++] = COMMA;
    at += s.body.copy(body, at, s.starts[first], s.ends[last]);
  });
  body[at++] = 0x5d; // ]
  if (envelope) DATA_CLOSE.copy(body, at);
  return { body, etag: `"${hash.digest('base64url')}"` };
}

/** What a list of bookings shows: the bookings, their positions' callsigns, their bookers' names. */
export const BOOKING_TOPICS: readonly Topic[] = ['bookings', 'positions', 'names'];

const DAY_MS = 86_400_000;

/** Where the window of recent and coming bookings begins: yesterday, 00:00 UTC. */
const windowStart = (now: number): number => Math.floor(now / DAY_MS) * DAY_MS - DAY_MS;

const isUnfiltered = (f: BookingListFilter) =>
  f.from === undefined &&
  f.to === undefined &&
  f.callsign === undefined &&
  f.cid === undefined &&
  f.after === undefined &&
  f.limit === undefined;

/** GET /api/bookings: every filter and page cut from a cached list of its form. */
export class BookingLists {
  /** Lists (by key) that were, when last built, too large to keep. */
  private readonly tooLarge = new Set<string>();

  constructor(
    private readonly bookings: BookingsRepository,
    private readonly clock: Clock,
    /** The services' response cache as it is at each request (see createServices). */
    private readonly responses: () => ResponseCache,
  ) {}

  async answer(form: BookingForm, filter: BookingListFilter, envelope: boolean): Promise<ListAnswer> {
    // Two entries are read for a wrapped list: under one stamp, so they always agree.
    const stamp = await this.responses().stampOf(BOOKING_TOPICS);
    if (isUnfiltered(filter)) return this.whole(form, envelope, stamp);
    // A list from yesterday on (the schedule, what is booked from now) needs only the window.
    const from = windowStart(this.clock());
    const whole = `bookings:${form}`;
    const key = filter.from !== undefined && filter.from >= from ? `${whole}:from:${from}` : whole;
    if (this.tooLarge.has(key)) return this.fromQuery(form, filter, envelope);
    return page(await this.snapshot(key, key === whole ? {} : { from }, form, stamp), filter, envelope);
  }

  private async whole(form: BookingForm, envelope: boolean, stamp: string | null): Promise<ListAnswer> {
    const key = `bookings:${form}`;
    const snapshot = await this.snapshot(key, {}, form, stamp);
    if (!envelope) return { body: snapshot.body, etag: snapshot.etag, next: null };
    const wrapped = await this.responses().entry(`${key}:data`, stamp, async () =>
      withEtag(Buffer.concat([DATA_OPEN, snapshot.body, DATA_CLOSE])),
    );
    return { ...wrapped, next: null };
  }

  /** The list of `scope` (every live booking, or those of the window), built and kept if it fits. */
  private async snapshot(key: string, scope: BookingListFilter, form: BookingForm, stamp: string | null): Promise<Snapshot> {
    const responses = this.responses();
    const snapshot = await responses.entry(key, stamp, async () => snapshotOf(await this.bookings.list(scope), form));
    if (responses.keeps(key, snapshot)) this.tooLarge.delete(key);
    else this.tooLarge.add(key);
    return snapshot;
  }

  /** The list too large to keep: the filter's window from the database, serialised, not kept. */
  private async fromQuery(form: BookingForm, filter: BookingListFilter, envelope: boolean): Promise<ListAnswer> {
    const limit = filter.limit;
    const rows = await this.bookings.list(limit === undefined ? filter : { ...filter, limit: limit + 1 });
    const more = limit !== undefined && rows.length > limit;
    const page = more ? rows.slice(0, limit) : rows;
    const list = bookingListBody(page, form);
    const last = page[page.length - 1];
    const next = more && last ? { time_start: last.time_start, id: last.id } : null;
    return { ...withEtag(Buffer.from(JSON.stringify(envelope ? { data: list } : list))), next };
  }
}

/** The filter's page cut from a snapshot that holds every booking it can select. */
function page(snapshot: Snapshot, filter: BookingListFilter, envelope: boolean): ListAnswer {
  const picked = select(snapshot, filter);
  const limit = filter.limit;
  const more = limit !== undefined && picked.length > limit;
  const chosen = more ? picked.slice(0, limit) : picked;
  const last = chosen[chosen.length - 1];
  const next = more && last !== undefined ? { time_start: snapshot.timeStart[last]!, id: snapshot.ids[last]! } : null;
  return { ...cut(snapshot, chosen, envelope), next };
}
