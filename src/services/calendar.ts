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
import { type Freshness, VersionedCache, type VersionReader, type Topic } from '../db/freshness.js';
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
import type { AccountView } from '../presenters/member-pages.js';
import type { OnNow } from '../presenters/on-now.js';
import { type Booker, type PageAssets, refusedFilterPage, type RefusedFilter, schedulePage } from '../presenters/schedule-page.js';
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
  /** Whether members can sign in: the page then has its account bar. */
  signIn: boolean;
  /** Who is on now, for the page; the page follows it at the next minute. */
  online?: () => Promise<OnNow[]>;
}

/** What the feed and the page show: bookings, their positions' callsigns and areas (no names). */
const CALENDAR_TOPICS: readonly Topic[] = ['bookings', 'positions'];

/** Who is on now, for the page, when the data feed is read. */
const onlineOf = (s: Snapshot) => (s.online ? { online: { controllers: s.online, now: s.at } } : {});

export class CalendarAnswers {
  private readonly snapshots: VersionedCache<Snapshot>;
  private readonly answers: VersionedCache<CachedBody>;
  private readonly dataVersion: VersionReader;

  constructor(
    private readonly repo: CalendarRepository,
    freshness: Freshness,
    private readonly clock: Clock,
    private readonly options: CalendarOptions,
  ) {
    // The data's version and the minute: a new minute moves the windows.
    const dataVersion: VersionReader = (this.dataVersion = async () => {
      const minute = this.minute();
      const s = await freshness.versionOf(CALENDAR_TOPICS)();
      return s === null ? null : `${s}@${minute}`;
    });
    this.snapshots = new VersionedCache(dataVersion, 1);
    this.answers = new VersionedCache(dataVersion, ANSWERS_KEPT, {
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
    // Read once: the bookings and the answer cut from them are kept under the same version.
    const dataVersion = await this.dataVersion();
    const snapshot = await this.snapshots.get('bookings', () => this.read(), dataVersion);
    const render = async () => withEtag(this.render(kind, filter, snapshot));
    if (!this.worthKeeping(filter, snapshot)) return render();
    return this.answers.get(`${kind}:${filterKey(filter)}`, render, dataVersion);
  }

  /**
   * The page as a signed-in member sees it: with their account bar and who booked each position.
   * Made for each request (it is theirs alone), from the same kept bookings.
   */
  async memberPage(filter: CalendarFilter, account: AccountView): Promise<Buffer> {
    const dataVersion = await this.dataVersion();
    const snapshot = await this.snapshots.get('bookings', () => this.read(), dataVersion);
    const picked = this.pick('page', filter, snapshot);
    const rows = await this.repo.bookers(picked.map((b) => b.id));
    const bookers = new Map<number, Booker>(
      rows.map((r) => [r.booking_id, { cid: r.cid, name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || String(r.cid) }]),
    );
    const { siteName } = this.options.config;
    return schedulePage({
      siteName,
      bookings: picked,
      areas: snapshot.areas,
      filter,
      assets: this.options.assets,
      account,
      bookers,
      now: snapshot.at,
      ...onlineOf(snapshot),
    });
  }

  private pick(kind: CalendarKind, filter: CalendarFilter, s: Snapshot): Kept[] {
    const window = kind === 'feed' ? feedWindow(s.at) : pageWindow(s.at);
    return s.bookings.filter((b) => inWindow(b, window) && matchesFilter(filter, b));
  }

  /** The schedule page for a filter it cannot use: the form again with the errors (never kept). */
  async refusedFilter(refused: RefusedFilter, account?: AccountView): Promise<Buffer> {
    const areas = await this.repo.areaNames();
    return refusedFilterPage({ siteName: this.options.config.siteName, areas, assets: this.options.assets, account }, refused);
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
    const picked = this.pick(kind, filter, s);
    if (kind === 'feed') return calendarFeed(picked, { siteName, siteHost, version: this.options.version });
    const account: AccountView = this.options.signIn ? { member: null, signInHref: '/auth/login' } : null;
    return schedulePage({
      siteName,
      bookings: picked,
      areas: s.areas,
      filter,
      assets: this.options.assets,
      account,
      now: s.at,
      ...onlineOf(s),
    });
  }
}

function inWindow(b: CalendarBooking, w: Window): boolean {
  if (b.time_end <= w.from || b.time_start >= w.to) return false;
  return b.deleted === 0 || (w.cancelledSince !== null && b.updated_at >= w.cancelledSince);
}
