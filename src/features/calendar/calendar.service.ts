// The calendar feed and the schedule page. Both show a window that moves with time (a week back to
// 90 days ahead; now to 30 days ahead), read at the minute, so that a page or feed asked for twice
// within a minute is the same bytes (and its ETag gets a 304).
import { type CalendarFilter, feedWindow, matchesFilter, pageWindow, type Window } from './domain.js';
import { calendarFeed } from './icalendar.view.js';
import type { AccountView } from '../../core/web/page-frame.js';
import type { OnNow } from './on-now.view.js';
import { type Booker, type PageAssets, refusedFilterPage, type RefusedFilter, schedulePage } from './schedule-page.view.js';
import type { CalendarBooking } from './calendar.repository.js';
import type { Deps } from '../../app/deps.js';

const MINUTE = 60_000;

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
  async feed(filter: CalendarFilter): Promise<Buffer> {
    const { siteName, siteHost } = this.deps.config;
    const bookings = await this.bookings(feedWindow(this.minute()), filter);
    return calendarFeed(bookings, { siteName, siteHost, version: this.deps.version });
  }

  /**
   * GET /: the schedule page; for a signed-in member (`account`), with who booked each position.
   * Signed out, its sign-in link is the same for every visitor.
   */
  async page(filter: CalendarFilter, account?: AccountView): Promise<Buffer> {
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
    return schedulePage({
      siteName: this.deps.config.siteName,
      bookings,
      areas,
      filter,
      assets: this.deps.assets,
      account: account ?? (this.deps.signIn ? { member: null, signInHref: '/auth/login' } : null),
      ...(bookers ? { bookers } : {}),
      now,
      ...(online ? { online: { controllers: online, now } } : {}),
    });
  }

  /** The schedule page for a filter it cannot use: the form again with the errors. */
  async refusedFilter(refused: RefusedFilter, account?: AccountView): Promise<Buffer> {
    const areas = await this.deps.repos.calendar.areaNames();
    return refusedFilterPage({ siteName: this.deps.config.siteName, areas, assets: this.deps.assets, account }, refused);
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
