// What the calendar feed and the schedule page show; their routes render it. Both show a window
// that moves with time (a week back to 90 days ahead; now to 30 days ahead), read at the minute, so
// that a page or feed asked for twice within a minute is the same bytes (and its ETag gets a 304).
import { type CalendarFilter, feedWindow, matchesFilter, pageWindow, type Window } from './domain.js';
import type { AccountView } from '../../core/web/page-frame.js';
import type { PageAssets } from '../../core/web/page-assets.js';
import type { CalendarBooking } from './calendar.repository.js';
import type { Deps } from '../../app/deps.js';

const MINUTE = 60_000;

/** Who is on a position of the division now (from the network's data feed). */
export interface OnNow {
  callsign: string;
  position: string;
  since: number;
}

/** Who booked a booking, as signed-in members see it. */
export interface Booker {
  cid: number;
  name: string;
}

/** The feed's bookings and the names it carries. */
export interface CalendarFeed {
  bookings: readonly CalendarBooking[];
  siteName: string;
  siteHost: string;
  /** The software's version, in PRODID. */
  version: string;
}

/** The schedule page's frame: what it shows with or without bookings. */
export interface ScheduleFrame {
  siteName: string;
  /** Every area's name, for the filter's select. */
  areas: readonly string[];
  assets: PageAssets;
  /** The account bar: absent when sign-in is off (the page as it always was). */
  account?: AccountView | undefined;
}

export interface SchedulePage extends ScheduleFrame {
  bookings: readonly CalendarBooking[];
  filter: CalendarFilter;
  /** The moment the page shows (epoch ms): which UTC day is today. */
  now: number;
  /** For signed-in members: who booked each booking (by booking id). Signed out: absent, the reduced form. */
  bookers?: ReadonlyMap<number, Booker>;
  /** Who is on now (absent: the section is not shown), as of `now`. */
  online?: { controllers: readonly OnNow[]; now: number };
}

export interface CalendarOptions {
  version: string;
  assets: PageAssets;
  /** Whether members can sign in: the page then has its account bar. */
  signIn: boolean;
  /** Who is on now, for the page (null: the data feed is not read). */
  online?: () => Promise<OnNow[]>;
}

export class CalendarService {
  constructor(private readonly deps: Deps<'repos' | 'clock' | 'config'> & CalendarOptions) {}

  private minute(): number {
    return Math.floor(this.deps.clock() / MINUTE) * MINUTE;
  }

  /** GET /calendar/bookings.ics: the feed's window, filtered. */
  async feed(filter: CalendarFilter): Promise<CalendarFeed> {
    const { siteName, siteHost } = this.deps.config;
    const bookings = await this.bookings(feedWindow(this.minute()), filter);
    return { bookings, siteName, siteHost, version: this.deps.version };
  }

  /**
   * GET /: the schedule page; for a signed-in member (`account`), with who booked each position.
   * Signed out, its sign-in link is the same for every visitor.
   */
  async page(filter: CalendarFilter, account?: AccountView): Promise<SchedulePage> {
    const now = this.minute();
    const [bookings, areas, online] = await Promise.all([
      this.bookings(pageWindow(now), filter),
      this.deps.repos.calendar.areaNames(),
      this.deps.online ? this.deps.online() : null,
    ]);
    let bookers: Map<number, Booker> | undefined;
    if (account?.member) {
      const rows = await this.deps.repos.calendar.bookers(bookings.map((b) => b.id));
      bookers = new Map(
        rows.map((r) => [r.booking_id, { cid: r.cid, name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || String(r.cid) }]),
      );
    }
    return {
      siteName: this.deps.config.siteName,
      bookings,
      areas,
      filter,
      assets: this.deps.assets,
      account: account ?? (this.deps.signIn ? { member: null, signInHref: '/auth/login' } : null),
      ...(bookers ? { bookers } : {}),
      now,
      ...(online ? { online: { controllers: online, now } } : {}),
    };
  }

  /** The schedule page's frame without bookings: for a filter it cannot use, shown again with the errors. */
  async frame(account?: AccountView): Promise<ScheduleFrame> {
    const areas = await this.deps.repos.calendar.areaNames();
    return { siteName: this.deps.config.siteName, areas, assets: this.deps.assets, account };
  }

  private async bookings(window: Window, filter: CalendarFilter): Promise<CalendarBooking[]> {
    const rows = await this.deps.repos.calendar.bookings(window);
    return rows.filter(
      (b) =>
        inWindow(b, window) &&
        matchesFilter(filter, { ...b, callsignKey: b.callsign.toUpperCase(), areaKey: b.area?.toLowerCase() ?? null }),
    );
  }
}

function inWindow(b: CalendarBooking, w: Window): boolean {
  if (b.time_end <= w.from || b.time_start >= w.to) return false;
  return b.deleted === 0 || (w.cancelledSince !== null && b.updated_at >= w.cancelledSince);
}
