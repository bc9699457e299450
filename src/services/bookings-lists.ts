// The answers of GET /api/bookings. Live bookings are kept serialised, per form, with an index of
// where each booking's bytes lie and what the filters compare (domain/bookings/query.ts):
// the full list, and the window of those ending after yesterday began, which is all a list from
// now on needs however many past bookings pile up. A filtered list or a page is cut from those
// bytes: no query, nothing serialised again, and nothing kept, so one-off filters (each `from` to
// the millisecond) cost little and cannot crowd the response cache. A list too large to keep is
// answered per request from a query of the filter's own window instead.
import { createHash } from 'node:crypto';
import type { Topic } from '../db/freshness.js';
import { type BookingListFilter, conditionsOf, type Listed, type ListPosition, meets } from '../domain/bookings/index.js';
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
  bookings: Listed[];
  /** Byte offsets of booking i in `body`: [starts[i], ends[i]). */
  starts: Uint32Array;
  ends: Uint32Array;
}

/** Index bytes per booking (what the filters compare, and two offsets), besides its serialised bytes. */
const INDEX_BYTES_PER_BOOKING = 96 + 2 * 4;

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
    bookings: rows.map(({ id, time_start, time_end, user_id, callsign }) => ({ id, time_start, time_end, user_id, callsign })),
    starts: new Uint32Array(n),
    ends: new Uint32Array(n),
    extraBytes: n * INDEX_BYTES_PER_BOOKING,
  };
  let offset = 1;
  parts.forEach((part, i) => {
    snapshot.starts[i] = offset;
    offset += Buffer.byteLength(part);
    snapshot.ends[i] = offset;
    offset += 1; // the comma
  });
  return snapshot;
}

/** Indexes of the bookings the filter selects, in list order, one more than `limit` to tell whether a page follows. */
function select(s: Snapshot, f: BookingListFilter): number[] {
  const conditions = conditionsOf(f);
  const wanted = f.limit === undefined ? Infinity : f.limit + 1;
  const picked: number[] = [];
  for (let i = 0; i < s.bookings.length && picked.length < wanted; i++) {
    if (meets(s.bookings[i]!, conditions)) picked.push(i);
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
    // Two entries are read for a wrapped list: under one version, so they always agree.
    const version = await this.responses().versionOf(BOOKING_TOPICS);
    if (isUnfiltered(filter)) return this.whole(form, envelope, version);
    // A list from yesterday on (the schedule, what is booked from now) needs only the window.
    const from = windowStart(this.clock());
    const whole = `bookings:${form}`;
    const key = filter.from !== undefined && filter.from >= from ? `${whole}:from:${from}` : whole;
    if (this.tooLarge.has(key)) return this.fromQuery(form, filter, envelope);
    return page(await this.snapshot(key, key === whole ? {} : { from }, form, version), filter, envelope);
  }

  private async whole(form: BookingForm, envelope: boolean, version: string | null): Promise<ListAnswer> {
    const key = `bookings:${form}`;
    const snapshot = await this.snapshot(key, {}, form, version);
    if (!envelope) return { body: snapshot.body, etag: snapshot.etag, next: null };
    const wrapped = await this.responses().entry(`${key}:data`, version, async () =>
      withEtag(Buffer.concat([DATA_OPEN, snapshot.body, DATA_CLOSE])),
    );
    return { ...wrapped, next: null };
  }

  /** The list of `scope` (every live booking, or those of the window), built and kept if it fits. */
  private async snapshot(key: string, scope: BookingListFilter, form: BookingForm, version: string | null): Promise<Snapshot> {
    const responses = this.responses();
    const snapshot = await responses.entry(key, version, async () => snapshotOf(await this.bookings.list(scope), form));
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
  const booking = last === undefined ? undefined : snapshot.bookings[last];
  const next = more && booking !== undefined ? { time_start: booking.time_start, id: booking.id } : null;
  return { ...cut(snapshot, chosen, envelope), next };
}
