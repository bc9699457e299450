// The calendar feed and the schedule page, answered from memory until bookings change.
//
// Both show a window that moves with time (a week back to 90 days ahead; now to 30 days ahead),
// so what they were built from is kept per minute as well as per database state: the bookings of
// the feed's window, read in one query, from which every filter and both kinds of answer are cut.
// Rendered answers are kept too, in a cache of their own with a small bound, and only for
// filters that name existing areas and callsigns: one-off filters (a made-up callsign, a typo)
// are rendered from the kept bookings each time and never kept, so they cannot grow memory or
// push real answers out.
import type { Config } from '../config.js';
import { type Freshness, StampedCache, type Stamp, type Topic } from '../db/freshness.js';
import {
  type CalendarFilter,
  feedWindow,
  filterKey,
  isUnfiltered,
  matchesFilter,
  pageWindow,
  type Window,
} from '../domain/calendar/filter.js';
import type { Clock } from '../domain/time.js';
import { calendarFeed } from '../presenters/icalendar.js';
import type { OnNow } from '../presenters/on-now.js';
import { type PageAssets, schedulePage } from '../presenters/schedule-page.js';
import type { CalendarBooking, CalendarRepository } from '../repositories/calendar.js';
import { type CachedBody, withEtag } from './cached-body.js';

const MINUTE = 60_000;

/** Rendered answers kept: the unfiltered ones and the most used filters of real areas and callsigns. */
const ANSWERS_KEPT = 64;
const ANSWER_BYTES_KEPT = 16 * 1024 * 1024;
const ANSWER_OVERHEAD_BYTES = 256;

interface Kept extends CalendarBooking {
  callsignKey: string;
  areaKey: string | null;
}

/** The bookings of the feed's window at one minute, and what the page's filter offers. */
interface Snapshot {
  /** The minute it was read at (epoch ms). */
  at: number;
  bookings: Kept[];
  areas: string[];
  /** Who was on at that minute (the page's "On now"). */
  online: OnNow[] | null;
  areaKeys: Set<string>;
  callsignKeys: string[];
}

export type CalendarKind = 'feed' | 'page';

export interface CalendarOptions {
  config: Pick<Config, 'siteName' | 'siteHost'>;
  version: string;
  assets: PageAssets;
  /** Who is on now, for the page; the page follows it at the next minute. */
  online?: () => Promise<OnNow[]>;
}

/** What the feed and the page show: bookings, their positions' callsigns and areas (no names). */
const CALENDAR_TOPICS: readonly Topic[] = ['bookings', 'positions'];

export class CalendarAnswers {
  private readonly snapshots: StampedCache<Snapshot>;
  private readonly answers: StampedCache<CachedBody>;
  private readonly stamp: Stamp;

  constructor(
    private readonly repo: CalendarRepository,
    freshness: Freshness,
    private readonly clock: Clock,
    private readonly options: CalendarOptions,
  ) {
    // The database's stamp and the minute: a new minute moves the windows.
    const stamp: Stamp = (this.stamp = () => {
      const minute = this.minute();
      const s = freshness.stampOf(CALENDAR_TOPICS)();
      if (s === null) return null;
      if (typeof s === 'string') return `${s}@${minute}`;
      return s.then((v) => (v === null ? null : `${v}@${minute}`));
    });
    this.snapshots = new StampedCache(stamp, 1);
    this.answers = new StampedCache(stamp, ANSWERS_KEPT, {
      maxBytes: ANSWER_BYTES_KEPT,
      maxEntryBytes: ANSWER_BYTES_KEPT / 4,
      sizeOf: (key, value) => value.body.byteLength + key.length * 2 + ANSWER_OVERHEAD_BYTES,
    });
  }

  private minute(): number {
    return Math.floor(this.clock() / MINUTE) * MINUTE;
  }

  /** The answer of a kind for a filter: bytes and a strong ETag. */
  async answer(kind: CalendarKind, filter: CalendarFilter): Promise<CachedBody> {
    // Read once: the bookings and the answer cut from them are kept under the same stamp.
    const stamp = await this.stamp();
    const snapshot = await this.snapshots.get('bookings', () => this.read(), stamp);
    const render = async () => withEtag(this.render(kind, filter, snapshot));
    if (!this.worthKeeping(filter, snapshot)) return render();
    return this.answers.get(`${kind}:${filterKey(filter)}`, render, stamp);
  }

  private async read(): Promise<Snapshot> {
    const at = this.minute();
    const [rows, areas, online] = await Promise.all([
      this.repo.bookings(feedWindow(at)),
      this.repo.areaNames(),
      this.options.online ? this.options.online() : null,
    ]);
    const bookings = rows.map((b) => ({
      ...b,
      callsignKey: b.callsign.toUpperCase(),
      areaKey: b.area === null ? null : b.area.toLowerCase(),
    }));
    return {
      at,
      bookings,
      areas,
      online,
      areaKeys: new Set(areas.map((a) => a.toLowerCase())),
      callsignKeys: [...new Set(bookings.map((b) => b.callsignKey))],
    };
  }

  /** A filter is kept when every value in it names an area, or matches a callsign, that exists. */
  private worthKeeping(f: CalendarFilter, s: Snapshot): boolean {
    if (isUnfiltered(f)) return true;
    return (
      f.areas.every((a) => s.areaKeys.has(a)) &&
      f.callsigns.every((c) => s.callsignKeys.includes(c)) &&
      f.prefixes.every((p) => s.callsignKeys.some((c) => c.startsWith(p)))
    );
  }

  private render(kind: CalendarKind, filter: CalendarFilter, s: Snapshot): Buffer {
    const { siteName, siteHost } = this.options.config;
    const window = kind === 'feed' ? feedWindow(s.at) : pageWindow(s.at);
    const picked = s.bookings.filter((b) => inWindow(b, window) && matchesFilter(filter, b));
    if (kind === 'feed') return calendarFeed(picked, { siteName, siteHost, version: this.options.version });
    return schedulePage({
      siteName,
      bookings: picked,
      areas: s.areas,
      filter,
      assets: this.options.assets,
      ...(s.online ? { online: { controllers: s.online, now: s.at } } : {}),
    });
  }
}

function inWindow(b: CalendarBooking, w: Window): boolean {
  if (b.time_end <= w.from || b.time_start >= w.to) return false;
  return b.deleted === 0 || (w.cancelledSince !== null && b.updated_at >= w.cancelledSince);
}
